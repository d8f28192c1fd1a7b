package io.slotkeeper.slot.watching;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import org.springframework.boot.health.contributor.CompositeHealthContributor;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthContributor;
import org.springframework.boot.health.contributor.HealthIndicator;

import io.slotkeeper.config.TargetProperties;
import io.slotkeeper.fleet.Target;
import io.slotkeeper.slot.reading.ReplicationSlot;

/**
 * The {@code slots} health, one child per target from its last poll: DOWN when a slot is invalidated (lost), UP
 * otherwise with a warning detail naming unreserved slots, UNKNOWN before the first poll or when the poll failed;
 * {@code healingStopped} says why healing gave up on a slot.
 * Not part of liveness or readiness.
 */
final class SlotHealth {

	private SlotHealth() {
	}

	static HealthContributor of(List<Target> targets, SlotPoller poller) {
		if (targets.isEmpty()) {
			return (HealthIndicator) () -> Health.up().withDetail("targets", 0).build();
		}
		Map<String, HealthIndicator> children = new LinkedHashMap<>();
		targets.forEach((target) -> children.put(target.name(), () -> poller.snapshot(target.name())
			.map((snapshot) -> health(target.properties(), snapshot, poller.healingStopped(target.name())))
			.orElseGet(() -> Health.unknown().withDetail("reason", "not polled yet").build())));
		return CompositeHealthContributor.fromMap(children);
	}

	private static Health health(TargetProperties target, SlotSnapshot snapshot, Map<String, String> healingStopped) {
		if (snapshot.error() != null) {
			return Health.unknown().withDetail("polledAt", snapshot.at()).withDetail("error", snapshot.error()).build();
		}
		List<String> invalidated = snapshot.named(ReplicationSlot::invalidated);
		List<String> unreserved = snapshot.named((slot) -> "unreserved".equals(slot.walStatus()));
		Health.Builder health = invalidated.isEmpty() ? Health.up() : Health.down();
		health.withDetail("polledAt", snapshot.at()).withDetail("slots", snapshot.slots().size());
		if (!invalidated.isEmpty()) {
			health.withDetail("invalidated", invalidated)
				.withDetail("reason", "slots lost their WAL and can never be read again: recreate them and re-snapshot");
		}
		Map<String, Long> lossSoon = new TreeMap<>();
		snapshot.slots()
			.stream()
			.filter((view) -> view.insight().secondsToLoss() != null
					&& view.insight().secondsToLoss() < target.lossWarning().toSeconds())
			.forEach((view) -> lossSoon.put(view.slot().slotName(), Math.round(view.insight().secondsToLoss())));
		if (!lossSoon.isEmpty()) {
			health.withDetail("lossSoon", lossSoon)
				.withDetail("lossWarning", "slots estimated to be lost within " + target.lossWarning()
						+ " (seconds), at the rate their safe_wal_size shrinks");
		}
		if (!healingStopped.isEmpty()) {
			health.withDetail("healingStopped", healingStopped);
		}
		if (!unreserved.isEmpty()) {
			health.withDetail("warning", "slots past max_slot_wal_keep_size, about to be lost: " + unreserved);
		}
		return health.build();
	}

}
