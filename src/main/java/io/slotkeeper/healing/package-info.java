/**
 * Healing and what else the owner of a target does after each poll ({@code Healing}, the
 * poll's {@code PollDuties}): lost and missing slots recreated ({@code SlotHealer}, each
 * attempt {@code HealAttempts}, its budget {@code HealBudget} counted by
 * {@code HealLedger} in the target's database, retries {@code HealRetry}), orphans
 * dropped, the connectors of slots made anew handed over ({@code ConnectorDuties}), stale
 * offsets aligned, failed connectors restarted ({@code FailedRestarts}), the WAL-limit
 * guard run, the failover checks updated ({@code
 * TargetPollDuties}). It uses the runbook ({@code slot}), the handovers
 * ({@code handover}) and what the polls saw ({@code watching}); nothing uses it but
 * through {@code PollDuties}.
 */
@ApplicationModule(allowedDependencies = { "audit", "config", "connect", "failover", "fleet", "gap", "handover",
		"outage", "problem", "replication", "resnapshot", "sessions", "settings", "slot :: changing", "support",
		"watching" })
package io.slotkeeper.healing;

import org.springframework.modulith.ApplicationModule;
