/**
 * The runbook: replication slots read, created, dropped and recreated through the API
 * (the controllers, their request and answer types, the reads they serve) and
 * {@code changing} (the rules, steps and service every change goes through, the API's and
 * healing's alike). Slots as a node shows them are {@code replication}'s, what the polls
 * saw {@code watching}'s.
 */
@ApplicationModule(allowedDependencies = { "api", "audit", "config", "connect", "failover", "fleet", "gap", "handover",
		"lineage", "problem", "replication", "resnapshot", "sessions", "support", "watching" })
package io.slotkeeper.slot;

import org.springframework.modulith.ApplicationModule;
