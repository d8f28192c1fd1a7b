package io.slotkeeper.failover;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.ToIntBiFunction;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;

import io.slotkeeper.fleet.Target;
import io.slotkeeper.replication.FailoverReadiness;
import io.slotkeeper.replication.ReplicationSlot;
import io.slotkeeper.support.SteadyGauge;

/**
 * The failover readiness of every target's logical slots as its last poll checked them,
 * for the listing, the {@code failover} health and
 * {@code slotkeeper_slot_failover_ready{target,slot,node}}; and the orphans on its
 * replicas, as {@code slotkeeper_slot_orphan{target,slot,node}}.
 */
public final class FailoverStates {

	private final Map<String, Map<String, Map<String, String>>> byTarget = new ConcurrentHashMap<>();

	private final Map<String, List<FailoverChecks.Orphan>> orphans = new ConcurrentHashMap<>();

	private final Map<String, SteadyGauge> gauges = new ConcurrentHashMap<>();

	private final Map<String, SteadyGauge> orphanGauges = new ConcurrentHashMap<>();

	/**
	 * Checks the target's slots on its replicas, and says which changed readiness.
	 * @param target the target
	 * @param slots the primary's slots
	 * @param registry where the gauges go
	 * @return each slot and replica whose readiness changed since the last check (at the
	 * first, those not ready)
	 */
	public List<Change> update(Target target, List<ReplicationSlot> slots, MeterRegistry registry) {
		FailoverChecks.Report report = FailoverChecks.check(target, slots);
		Map<String, Map<String, String>> reasons = report.reasons();
		Map<String, Map<String, String>> before = this.byTarget.put(target.name(), reasons);
		List<Change> changes = new ArrayList<>();
		reasons.forEach((slot, byNode) -> byNode.forEach((node, reason) -> {
			boolean known = before != null && before.containsKey(slot) && before.get(slot).containsKey(node);
			String was = known ? before.get(slot).get(node) : null;
			if (!"needs PostgreSQL 17".equals(reason)
					&& ((known) ? (was == null) != (reason == null) : reason != null)) {
				changes.add(new Change(slot, node, reason));
			}
		}));
		this.orphans.put(target.name(), List.copyOf(report.orphans()));
		this.orphanGauges.computeIfAbsent(target.name(), (name) -> new SteadyGauge("slotkeeper.slot.orphan",
				"1 when the replica's slot of this name is not synchronized from the primary's failover slot and blocks"
						+ " its synchronization, 0 when not",
				null, registry))
			.set(rows(target.name(), reasons, (slot, node) -> orphan(target.name(), node, slot) ? 1 : 0));
		this.gauges
			.computeIfAbsent(target.name(),
					(name) -> new SteadyGauge("slotkeeper.slot.failover.ready",
							"1 when the replica holds a copy of the slot that would survive a failover, 0 when not",
							null, registry))
			.set(rows(target.name(), reasons, (slot, node) -> (reasons.get(slot).get(node) == null) ? 1 : 0));
		return changes;
	}

	/**
	 * A slot whose readiness on a replica changed.
	 *
	 * @param slot the slot
	 * @param node the replica
	 * @param reason why it is not ready now, {@code null} when it is
	 */
	public record Change(String slot, String node, String reason) {

	}

	// One row per logical slot and replica that could be checked: none before PostgreSQL
	// 17.
	private static Map<Tags, Number> rows(String target, Map<String, Map<String, String>> reasons,
			ToIntBiFunction<String, String> value) {
		Map<Tags, Number> rows = new LinkedHashMap<>();
		reasons.forEach((slot, byNode) -> byNode.forEach((node, reason) -> {
			if (!"needs PostgreSQL 17".equals(reason)) {
				rows.put(Tags.of("target", target, "slot", slot, "node", node), value.applyAsInt(slot, node));
			}
		}));
		return rows;
	}

	/**
	 * A slot's readiness, summed up over the target's replicas.
	 * @param target the target's name
	 * @param slot the slot's name
	 * @return ready when every replica is, else the first replica's reason;
	 * {@link FailoverReadiness#NONE} when the target has no replicas or the slot is not
	 * logical
	 */
	public FailoverReadiness of(String target, String slot) {
		Map<String, String> byNode = this.byTarget.getOrDefault(target, Map.of()).get(slot);
		if (byNode == null || byNode.isEmpty()) {
			return FailoverReadiness.NONE;
		}
		for (Map.Entry<String, String> node : byNode.entrySet()) {
			if ("needs PostgreSQL 17".equals(node.getValue())) {
				return new FailoverReadiness(null, node.getKey() + ": needs PostgreSQL 17");
			}
			if (node.getValue() != null) {
				return new FailoverReadiness(false, node.getKey() + ": " + node.getValue());
			}
		}
		return new FailoverReadiness(true, null);
	}

	/**
	 * Every slot of a target that would not survive a failover, with why.
	 * @param target the target's name
	 * @return by slot, the reason of the first replica that is not ready
	 */
	public Map<String, String> notReady(String target) {
		Map<String, String> slots = new java.util.TreeMap<>();
		this.byTarget.getOrDefault(target, Map.of()).keySet().forEach((slot) -> {
			FailoverReadiness readiness = of(target, slot);
			if (Boolean.FALSE.equals(readiness.failoverReady())) {
				slots.put(slot, readiness.failoverReason());
			}
		});
		return slots;
	}

	/**
	 * The orphans the last check found on a target's replicas.
	 * @param target the target's name
	 * @return the orphans, empty when none
	 */
	public List<FailoverChecks.Orphan> orphans(String target) {
		return this.orphans.getOrDefault(target, List.of());
	}

	/**
	 * Whether a replica's slot is an orphan, as the last check found.
	 * @param target the target's name
	 * @param node the replica's name
	 * @param slot the slot's name
	 * @return whether it blocks the synchronization of the primary's failover slot of
	 * that name
	 */
	public boolean orphan(String target, String node, String slot) {
		return orphans(target).stream().anyMatch((orphan) -> orphan.node().equals(node) && orphan.slot().equals(slot));
	}

	/**
	 * Whether the target's slots were checked at all.
	 * @param target the target's name
	 * @return whether it has replicas and a poll checked them
	 */
	public boolean checked(String target) {
		return !this.byTarget.getOrDefault(target, Map.of()).isEmpty();
	}

	// The gauges' series went with the target's meters (TargetMeters); a target of the
	// same name that joins later
	// registers new ones.
	public void forget(String target) {
		this.byTarget.remove(target);
		this.orphans.remove(target);
		this.gauges.remove(target);
		this.orphanGauges.remove(target);
	}

}
