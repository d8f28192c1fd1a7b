/**
 * Failover: whether each logical slot would survive a failover to the target's replicas
 * ({@code FailoverChecks} after each poll, kept in {@code FailoverStates}, the
 * {@code failover} health), the orphans a standby holds, and the notice that another
 * server answers for a primary ({@code FailoverWatch}: logged, audited, counted, and
 * published as {@code TargetFailedOver} for the poller). It calls no feature.
 */
@ApplicationModule(
		allowedDependencies = { "audit", "config", "fleet", "problem", "replication", "sessions", "support" })
package io.slotkeeper.failover;

import org.springframework.modulith.ApplicationModule;
