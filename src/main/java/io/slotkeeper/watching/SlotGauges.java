package io.slotkeeper.watching;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.MultiGauge;
import io.micrometer.core.instrument.Tags;

import io.slotkeeper.config.SlotPolicyProperties;
import io.slotkeeper.config.TargetProperties;
import io.slotkeeper.fleet.SlotLineage;
import io.slotkeeper.replication.ReplicationSlot;
import io.slotkeeper.replication.SlotTags;
import io.slotkeeper.replication.SlotView;

/**
 * The slot gauges of one target's primary, rewritten after each poll so that the meters of slots that disappeared go with them:
 * {@code slotkeeper_slot_retained_wal_bytes}, {@code _safe_wal_size_bytes} (absent when unlimited),
 * {@code _active}, {@code _wal_status{wal_status}} (1 for the current status, 0 for the others) and
 * {@code _inactive_seconds}, {@code _heartbeat_acknowledged}, {@code _seconds_to_loss} and
 * {@code _outage_budget_seconds} (each absent while
 * unknown), {@code slotkeeper_slot_missing{target,slot}} for the slots configured in {@code slots[]}; also removes {@code slotkeeper_slot_recreations_total} of a primary's slot that is gone.
 */
final class SlotGauges {

	private static final List<String> WAL_STATUSES = List.of("reserved", "extended", "unreserved", "lost");

	private final String target;

	private final MeterRegistry registry;

	private final MultiGauge retained;

	private final MultiGauge safeWalSize;

	private final MultiGauge active;

	private final MultiGauge walStatus;

	private final MultiGauge inactive;

	private final MultiGauge acknowledged;

	private final MultiGauge secondsToLoss;

	private final MultiGauge budget;

	private final MultiGauge missing;

	private final MultiGauge xidAge;

	// Before PostgreSQL 17 the server does not say since when a slot is inactive: the poller remembers it.
	private final Map<String, Instant> inactiveSince = new HashMap<>();

	private Set<String> known = Set.of();

	SlotGauges(String target, MeterRegistry registry) {
		this.target = target;
		this.registry = registry;
		this.retained = gauge("slotkeeper.slot.retained.wal", "WAL the slot pins: current LSN minus restart_lsn",
				"bytes");
		this.safeWalSize = gauge("slotkeeper.slot.safe.wal.size", "WAL that can still be written before the slot is at"
				+ " risk (max_slot_wal_keep_size)", "bytes");
		this.active = gauge("slotkeeper.slot.active", "1 while a consumer streams from the slot");
		this.walStatus = gauge("slotkeeper.slot.wal.status", "1 for the slot's current wal_status, 0 for the others");
		this.inactive = gauge("slotkeeper.slot.inactive", "How long no consumer has streamed from the slot; 0 while"
				+ " active", "seconds");
		this.acknowledged = gauge("slotkeeper.slot.heartbeat.acknowledged", "1 when the slot's consumer confirmed past"
				+ " the heartbeat due by now, 0 when it did not");
		// No base unit: the name already says seconds, and Prometheus would append it again.
		this.secondsToLoss = gauge("slotkeeper.slot.seconds.to.loss", "Estimated seconds until the slot is lost, at the"
				+ " rate its safe_wal_size shrinks");
		this.budget = gauge("slotkeeper.slot.outage.budget.seconds", "Seconds a slot no consumer reads has left before"
				+ " it is lost, at the WAL the server wrote per second over the last hour");
		this.xidAge = gauge("slotkeeper.slot.xid.age", "Transactions since the oldest xmin or catalog_xmin the slot"
				+ " holds back (age()): VACUUM cannot freeze past it", "transactions");
		this.missing = gauge("slotkeeper.slot.missing", "1 when a slot configured in slots[] is not on the primary, 0"
				+ " when it is");
	}

	void update(List<SlotView> slots, Instant now) {
		List<MultiGauge.Row<?>> retainedRows = new ArrayList<>();
		List<MultiGauge.Row<?>> safeRows = new ArrayList<>();
		List<MultiGauge.Row<?>> activeRows = new ArrayList<>();
		List<MultiGauge.Row<?>> statusRows = new ArrayList<>();
		List<MultiGauge.Row<?>> inactiveRows = new ArrayList<>();
		List<MultiGauge.Row<?>> acknowledgedRows = new ArrayList<>();
		List<MultiGauge.Row<?>> lossRows = new ArrayList<>();
		List<MultiGauge.Row<?>> budgetRows = new ArrayList<>();
		List<MultiGauge.Row<?>> xidRows = new ArrayList<>();
		Set<String> names = new HashSet<>();
		for (SlotView view : slots) {
			ReplicationSlot slot = view.slot();
			// The epoch is a label, so that a recreated slot is a new series: a dashboard shows where one ends.
			SlotLineage lineage = view.insight().lineage();
			Tags tags = SlotTags.of(this.target, slot)
				.and("lineage", String.valueOf((lineage != null) ? lineage.epoch() : SlotLineage.FIRST.epoch()));
			names.add(slot.slotName());
			if (slot.retainedWalBytes() != null) {
				retainedRows.add(MultiGauge.Row.of(tags, slot.retainedWalBytes()));
			}
			if (slot.xidAgeTransactions() != null) {
				xidRows.add(MultiGauge.Row.of(tags, slot.xidAgeTransactions()));
			}
			if (slot.safeWalSizeBytes() != null) {
				safeRows.add(MultiGauge.Row.of(tags, slot.safeWalSizeBytes()));
			}
			boolean isActive = slot.streaming();
			activeRows.add(MultiGauge.Row.of(tags, isActive ? 1 : 0));
			for (String status : WAL_STATUSES) {
				statusRows.add(MultiGauge.Row.of(tags.and("wal_status", status), status.equals(slot.walStatus()) ? 1 : 0));
			}
			inactiveRows.add(MultiGauge.Row.of(tags, inactiveSeconds(slot, isActive, now)));
			if (view.insight().heartbeatAcknowledged() != null) {
				acknowledgedRows.add(MultiGauge.Row.of(tags, view.insight().heartbeatAcknowledged() ? 1 : 0));
			}
			if (view.insight().secondsToLoss() != null) {
				lossRows.add(MultiGauge.Row.of(tags, view.insight().secondsToLoss()));
			}
			if (view.insight().budget() != null && view.insight().budget().secondsLeft() != null) {
				budgetRows.add(MultiGauge.Row.of(tags, view.insight().budget().secondsLeft()));
			}
		}
		this.retained.register(retainedRows, true);
		this.safeWalSize.register(safeRows, true);
		this.active.register(activeRows, true);
		this.walStatus.register(statusRows, true);
		this.inactive.register(inactiveRows, true);
		this.acknowledged.register(acknowledgedRows, true);
		this.secondsToLoss.register(lossRows, true);
		this.budget.register(budgetRows, true);
		this.xidAge.register(xidRows, true);
		this.inactiveSince.keySet().retainAll(names);
		for (String gone : this.known) {
			if (!names.contains(gone)) {
				this.registry.find("slotkeeper.slot.recreations")
					.tags("target", this.target, "node", TargetProperties.PRIMARY, "slot", gone)
					.meters()
					.forEach((Meter meter) -> this.registry.remove(meter));
			}
		}
		this.known = names;
	}

	private MultiGauge gauge(String name, String description, String... baseUnit) {
		MultiGauge.Builder builder = MultiGauge.builder(name).description(description);
		return ((baseUnit.length > 0) ? builder.baseUnit(baseUnit[0]) : builder).register(this.registry);
	}

	/**
	 * Removes every slot series of the target, while another instance owns it and exports them: each slot alert
	 * then fires once, not once per pod.
	 */
	void withdraw() {
		for (MultiGauge gauge : List.of(this.retained, this.safeWalSize, this.active, this.walStatus, this.inactive,
				this.acknowledged, this.secondsToLoss, this.budget, this.missing, this.xidAge)) {
			gauge.register(List.of(), true);
		}
	}

	void missing(List<SlotPolicyProperties> configured, List<SlotSightings.Missing> absent) {
		Set<String> names = new HashSet<>();
		absent.forEach((slot) -> names.add(slot.name()));
		List<MultiGauge.Row<?>> rows = new ArrayList<>();
		for (SlotPolicyProperties policy : configured) {
			rows.add(MultiGauge.Row.of(Tags.of("target", this.target, "slot", policy.name()),
					names.contains(policy.name()) ? 1 : 0));
		}
		this.missing.register(rows, true);
	}

	private double inactiveSeconds(ReplicationSlot slot, boolean isActive, Instant now) {
		if (isActive) {
			this.inactiveSince.remove(slot.slotName());
			return 0;
		}
		Instant since = (slot.inactiveSince() != null) ? slot.inactiveSince().toInstant()
				: this.inactiveSince.computeIfAbsent(slot.slotName(), (name) -> now);
		return Math.max(0, Duration.between(since, now).toMillis() / 1000.0);
	}

}
