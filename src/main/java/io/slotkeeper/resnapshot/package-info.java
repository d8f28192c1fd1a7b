/**
 * Re-snapshots after a recreate: the Debezium signal ({@code execute-snapshot},
 * incremental or blocking) planned from the connector's configuration and the slot's
 * policy ({@code SignalPlans}), written into the signal table ({@code SignalRows},
 * checked by {@code SignalTableCheck}), of every captured table or only those written in
 * the gap ({@code ChangedTables}, {@code TableChoice}), sent again when the first was
 * missed ({@code SecondSignals}), counted ({@code ResnapshotMeters}). The runbook's
 * recreates call it ({@code Resnapshots}); it calls no feature.
 */
@ApplicationModule(allowedDependencies = { "config", "connect", "fleet", "gap", "lineage", "problem", "replication",
		"sessions", "support" })
package io.slotkeeper.resnapshot;

import org.springframework.modulith.ApplicationModule;
