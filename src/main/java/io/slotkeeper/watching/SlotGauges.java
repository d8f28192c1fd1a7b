package io.slotkeeper.watching;

import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;

import io.slotkeeper.config.SlotPolicyProperties;
import io.slotkeeper.config.TargetProperties;
import io.slotkeeper.lineage.SlotLineage;
import io.slotkeeper.replication.ReplicationSlot;
import io.slotkeeper.replication.SlotBudget;
import io.slotkeeper.replication.SlotTags;
import io.slotkeeper.replication.SlotView;
import io.slotkeeper.support.SteadyGauge;

/**
 * The slot gauges of one target's primary, rewritten after each poll so that the meters
 * of slots that disappeared go with them: {@code slotkeeper_slot_retained_wal_bytes},
 * {@code _safe_wal_size_bytes} (absent when unlimited), {@code _active},
 * {@code _wal_status{wal_status}} (1 for the current status, 0 for the others) and
 * {@code _inactive_seconds}, {@code _heartbeat_acknowledged} and {@code _seconds_to_loss}
 * (each absent while unknown), {@code _outage_budget_seconds} (of a logical slot not
 * lost; +Inf while nothing runs it out), {@code slotkeeper_slot_missing{target,slot}} for
 * the slots configured in {@code slots[]}; also removes
 * {@code slotkeeper_slot_recreations_total} of a primary's slot that two polls in a row
 * found gone.
 */
final class SlotGauges {

	private static final List<String> WAL_STATUSES = List.of("reserved", "extended", "unreserved", "lost");

	private final String target;

	private final MeterRegistry registry;

	private final SteadyGauge retained;

	private final SteadyGauge safeWalSize;

	private final SteadyGauge active;

	private final SteadyGauge walStatus;

	private final SteadyGauge inactive;

	private final SteadyGauge acknowledged;

	private final SteadyGauge secondsToLoss;

	private final SteadyGauge budget;

	private final SteadyGauge missing;

	private final SteadyGauge xidAge;

	// Before PostgreSQL 17 the server does not say since when a slot is inactive: the
	// poller remembers it.
	private final Map<String, Instant> inactiveSince = new HashMap<>();

	private Set<String> known = Set.of();

	private Set<String> goneOnce = Set.of();

	SlotGauges(String target, MeterRegistry registry) {
		this.target = target;
		this.registry = registry;
		this.retained = gauge("slotkeeper.slot.retained.wal", "WAL the slot pins: current LSN minus restart_lsn",
				"bytes");
		this.safeWalSize = gauge("slotkeeper.slot.safe.wal.size",
				"WAL that can still be written before the slot is at" + " risk (max_slot_wal_keep_size)", "bytes");
		this.active = gauge("slotkeeper.slot.active", "1 while a consumer streams from the slot");
		this.walStatus = gauge("slotkeeper.slot.wal.status", "1 for the slot's current wal_status, 0 for the others");
		this.inactive = gauge("slotkeeper.slot.inactive",
				"How long no consumer has streamed from the slot; 0 while" + " active", "seconds");
		this.acknowledged = gauge("slotkeeper.slot.heartbeat.acknowledged",
				"1 when the slot's consumer confirmed past" + " the heartbeat due by now, 0 when it did not");
		// No base unit: the name already says seconds, and Prometheus would append it
		// again.
		this.secondsToLoss = gauge("slotkeeper.slot.seconds.to.loss",
				"Estimated seconds until the slot is lost, at the" + " rate its safe_wal_size shrinks");
		this.budget = gauge("slotkeeper.slot.outage.budget.seconds", "Seconds a slot no consumer reads has left before"
				+ " it is lost, at the WAL the server wrote per second over the last hour; +Inf while nothing runs it out"
				+ " (its consumer reads it, no WAL limit, no WAL written)");
		this.xidAge = gauge("slotkeeper.slot.xid.age", "Transactions since the oldest xmin or catalog_xmin the slot"
				+ " holds back (age()): VACUUM cannot freeze past it", "transactions");
		this.missing = gauge("slotkeeper.slot.missing",
				"1 when a slot configured in slots[] is not on the primary, 0" + " when it is");
	}

	void update(List<SlotView> slots, Instant now) {
		Map<Tags, Number> retainedRows = new LinkedHashMap<>();
		Map<Tags, Number> safeRows = new LinkedHashMap<>();
		Map<Tags, Number> activeRows = new LinkedHashMap<>();
		Map<Tags, Number> statusRows = new LinkedHashMap<>();
		Map<Tags, Number> inactiveRows = new LinkedHashMap<>();
		Map<Tags, Number> acknowledgedRows = new LinkedHashMap<>();
		Map<Tags, Number> lossRows = new LinkedHashMap<>();
		Map<Tags, Number> budgetRows = new LinkedHashMap<>();
		Map<Tags, Number> xidRows = new LinkedHashMap<>();
		Set<String> names = new HashSet<>();
		for (SlotView view : slots) {
			ReplicationSlot slot = view.slot();
			// The epoch is a label, so that a recreated slot is a new series: a dashboard
			// shows where one ends.
			SlotLineage lineage = view.insight().lineage();
			Tags tags = SlotTags.of(this.target, slot)
				.and("lineage", String.valueOf((lineage != null) ? lineage.epoch() : SlotLineage.FIRST.epoch()));
			names.add(slot.slotName());
			if (slot.retainedWalBytes() != null) {
				retainedRows.put(tags, slot.retainedWalBytes());
			}
			if (slot.xidAgeTransactions() != null) {
				xidRows.put(tags, slot.xidAgeTransactions());
			}
			if (slot.safeWalSizeBytes() != null) {
				safeRows.put(tags, slot.safeWalSizeBytes());
			}
			boolean isActive = slot.streaming();
			activeRows.put(tags, isActive ? 1 : 0);
			for (String status : WAL_STATUSES) {
				statusRows.put(tags.and("wal_status", status), status.equals(slot.walStatus()) ? 1 : 0);
			}
			inactiveRows.put(tags, inactiveSeconds(slot, isActive, now));
			if (view.insight().heartbeatAcknowledged() != null) {
				acknowledgedRows.put(tags, view.insight().heartbeatAcknowledged() ? 1 : 0);
			}
			if (view.insight().secondsToLoss() != null) {
				lossRows.put(tags, view.insight().secondsToLoss());
			}
			Double budget = outageBudget(view);
			if (budget != null) {
				budgetRows.put(tags, budget);
			}
		}
		this.retained.set(retainedRows);
		this.safeWalSize.set(safeRows);
		this.active.set(activeRows);
		this.walStatus.set(statusRows);
		this.inactive.set(inactiveRows);
		this.acknowledged.set(acknowledgedRows);
		this.secondsToLoss.set(lossRows);
		this.budget.set(budgetRows);
		this.xidAge.set(xidRows);
		this.inactiveSince.keySet().retainAll(names);
		// A recreate drops the slot before it makes it anew, and counts itself: a poll
		// that
		// read the slots in between would take the new count with it. So a slot's count
		// goes only once two polls in a row found the slot gone.
		Set<String> goneOnce = new HashSet<>();
		for (String gone : this.known) {
			if (names.contains(gone)) {
				continue;
			}
			if (!this.goneOnce.contains(gone)) {
				goneOnce.add(gone);
				continue;
			}
			this.registry.find("slotkeeper.slot.recreations")
				.tags("target", this.target, "node", TargetProperties.PRIMARY, "slot", gone)
				.meters()
				.forEach((Meter meter) -> this.registry.remove(meter));
		}
		this.goneOnce = goneOnce;
		Set<String> known = new HashSet<>(names);
		known.addAll(goneOnce);
		this.known = known;
	}

	// At rest the budget is all the time there is (+Inf), so that the metric exists from
	// the first polls: a slot its consumer reads, a server with no WAL limit, or one that
	// wrote nothing over the last hour. Unknown before the rate is (two polls), and a
	// lost
	// slot has none: its own alert covers it.
	private static Double outageBudget(SlotView view) {
		ReplicationSlot slot = view.slot();
		SlotBudget budget = view.insight().budget();
		if (!slot.logical() || slot.invalidated()) {
			return null;
		}
		if (budget == null) {
			return Boolean.TRUE.equals(slot.active()) ? Double.POSITIVE_INFINITY : null;
		}
		if (budget.secondsLeft() != null) {
			return budget.secondsLeft();
		}
		return (budget.safeWalSizeBytes() == null || budget.walBytesPerSecond() != null) ? Double.POSITIVE_INFINITY
				: null;
	}

	private SteadyGauge gauge(String name, String description, String... baseUnit) {
		return new SteadyGauge(name, description, (baseUnit.length > 0) ? baseUnit[0] : null, this.registry);
	}

	/**
	 * Removes every slot series of the target, while another instance owns it and exports
	 * them: each slot alert then fires once, not once per pod.
	 */
	void withdraw() {
		for (SteadyGauge gauge : List.of(this.retained, this.safeWalSize, this.active, this.walStatus, this.inactive,
				this.acknowledged, this.secondsToLoss, this.budget, this.missing, this.xidAge)) {
			gauge.clear();
		}
	}

	void missing(List<SlotPolicyProperties> configured, List<SlotSightings.Missing> absent) {
		Set<String> names = new HashSet<>();
		absent.forEach((slot) -> names.add(slot.name()));
		Map<Tags, Number> rows = new LinkedHashMap<>();
		for (SlotPolicyProperties policy : configured) {
			rows.put(Tags.of("target", this.target, "slot", policy.name()), names.contains(policy.name()) ? 1 : 0);
		}
		this.missing.set(rows);
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
