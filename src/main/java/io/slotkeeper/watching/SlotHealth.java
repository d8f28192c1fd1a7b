package io.slotkeeper.watching;

import java.time.Clock;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthContributor;

import io.slotkeeper.config.TargetProperties;
import io.slotkeeper.fleet.Fleet;
import io.slotkeeper.fleet.FleetHealth;
import io.slotkeeper.replication.ReplicationSlot;
import io.slotkeeper.replication.SlotView;
import io.slotkeeper.settings.RaisedLimit;

/**
 * The {@code slots} health, one child per target from its last poll: DOWN when a slot is
 * invalidated (lost, or on PostgreSQL 18 idle too long), a slot configured in
 * {@code slots[]} is missing, or a recreate left the slot's connector not running and it
 * still does not run ({@code connectorNotRunning}, with the task's trace), or a
 * connector's task failed on a stored offset older than its slot
 * ({@code connectorStaleOffset}), UP otherwise with a warning detail naming unreserved
 * slots, UNKNOWN before the first poll, when the last poll failed or when no poll ended
 * for three intervals; {@code healingStopped} says why healing gave up on a slot;
 * {@code keepSizeRaise} shows a WAL-limit raise that stands (on its server's lead
 * target), DOWN once it has stood unneeded for longer than {@link RaisedLimit#OVERDUE}.
 * Not part of liveness or readiness.
 */
final class SlotHealth {

	private SlotHealth() {
	}

	static HealthContributor of(Fleet fleet, SlotPoller poller, ConnectorStates connectors, SlotHealthReadOuts readOuts,
			Clock clock) {
		return FleetHealth.of(fleet, (target) -> true, (target) -> poller.snapshot(target.name())
			.map((snapshot) -> withJournals(health(target.properties(), snapshot, poller.missing(target.name()),
					connectors.notRunningAfterHandover(target), poller.staleOffsets(target.name()),
					readOuts.healingStopped(target.name()), readOuts.healingBudgetInMemoryBecause(target.name()),
					target.tableCounters().notSampledBecause(), readOuts.raisedLimit(target.name()), clock.instant()),
					readOuts.gapJournals(target.name())))
			.orElseGet(() -> Health.unknown().withDetail("reason", "not polled yet").build()),
				Health.up().withDetail("targets", 0).build());
	}

	private static Health withJournals(Health health, Map<String, String> journals) {
		return journals.isEmpty() ? health
				: Health.status(health.getStatus())
					.withDetails(health.getDetails())
					.withDetail("gapJournals", journals)
					.build();
	}

	private static Health health(TargetProperties target, SlotSnapshot snapshot, List<String> missing,
			Map<String, String> notRunning, Map<String, String> staleOffsets, Map<String, String> healingStopped,
			String budgetInMemory, String tablesNotSampled, Optional<RaisedLimit> raisedLimit, Instant now) {
		if (snapshot.error() != null) {
			Health.Builder failed = Health.unknown()
				.withDetail("polledAt", snapshot.at())
				.withDetail("error", snapshot.error());
			if (snapshot.lastGoodAt() != null) {
				failed.withDetail("lastGoodPollAt", snapshot.lastGoodAt());
			}
			return failed.build();
		}
		if (snapshot.stale(target.slotsPollInterval(), now)) {
			return Health.unknown()
				.withDetail("polledAt", snapshot.at())
				.withDetail("reason", "no poll ended for more than three intervals: the target is slow to answer")
				.build();
		}
		List<String> invalidated = snapshot.named(ReplicationSlot::invalidated);
		List<String> unreserved = snapshot.named((slot) -> "unreserved".equals(slot.walStatus()));
		boolean raiseStuck = raisedLimit.filter((raise) -> raise.overdue(now)).isPresent();
		Health.Builder health = (invalidated.isEmpty() && missing.isEmpty() && notRunning.isEmpty()
				&& staleOffsets.isEmpty() && !raiseStuck) ? Health.up() : Health.down();
		raisedLimit.ifPresent((raise) -> health.withDetail("keepSizeRaise", raiseDetail(raise, now)));
		if (!notRunning.isEmpty()) {
			health.withDetail("connectorNotRunning", notRunning);
		}
		if (!staleOffsets.isEmpty()) {
			health.withDetail("connectorStaleOffset", staleOffsets);
		}
		if (!missing.isEmpty()) {
			health.withDetail("missing", missing)
				.withDetail("missingReason", "slots configured in slots[] are not on"
						+ " the primary (a failover to a server that never had them?): their consumers cannot stream");
		}
		health.withDetail("polledAt", snapshot.at()).withDetail("slots", snapshot.slots().size());
		if (!invalidated.isEmpty()) {
			Map<String, String> reasons = new TreeMap<>();
			snapshot.slots()
				.stream()
				.map(SlotView::slot)
				.filter(ReplicationSlot::invalidated)
				.forEach((slot) -> reasons.put(slot.slotName(), slot.invalidation()));
			health.withDetail("invalidated", invalidated)
				.withDetail("invalidationReasons", reasons)
				.withDetail("reason", "slots were invalidated by the server (see invalidationReasons) and can never be"
						+ " read again: recreate them and re-snapshot");
		}
		Map<String, Long> lossSoon = new TreeMap<>();
		snapshot.slots()
			.stream()
			.filter((view) -> view.insight().soonestLoss() != null
					&& view.insight().soonestLoss() < target.lossWarning().toSeconds())
			.forEach((view) -> lossSoon.put(view.slot().slotName(), Math.round(view.insight().soonestLoss())));
		if (!lossSoon.isEmpty()) {
			health.withDetail("lossSoon", lossSoon)
				.withDetail("lossWarning", "slots estimated to be lost within " + target.lossWarning()
						+ " (seconds), at the rate their safe_wal_size shrinks or, with their consumer gone, at the"
						+ " server's WAL rate of the last hour");
		}
		if (!healingStopped.isEmpty()) {
			health.withDetail("healingStopped", healingStopped);
		}
		if (budgetInMemory != null) {
			health.withDetail("healingBudget", budgetInMemory);
		}
		if (tablesNotSampled != null) {
			health.withDetail("tableCounters", tablesNotSampled);
		}
		if (!unreserved.isEmpty()) {
			health.withDetail("warning", "slots past max_slot_wal_keep_size, about to be lost: " + unreserved);
		}
		return health.build();
	}

	private static Map<String, Object> raiseDetail(RaisedLimit raise, Instant now) {
		Map<String, Object> detail = new LinkedHashMap<>();
		detail.put("fromMegabytes", raise.fromMegabytes());
		detail.put("toMegabytes", raise.toMegabytes());
		detail.put("slots", raise.slots());
		detail.put("raisedAt", raise.raisedAt());
		detail.put("ageSeconds", raise.ageSeconds(now));
		if (raise.unneededSince() != null) {
			detail.put("unneededSince", raise.unneededSince());
			detail.put("unneededSeconds", raise.unneededSeconds(now));
			detail.put("reason", raise.unneededNote(now));
		}
		return detail;
	}

}
