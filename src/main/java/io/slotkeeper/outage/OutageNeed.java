package io.slotkeeper.outage;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

import io.slotkeeper.config.OnOutageProperties;
import io.slotkeeper.config.SlotPolicyProperties;
import io.slotkeeper.replication.ReplicationSlot;
import io.slotkeeper.replication.SlotBudget;
import io.slotkeeper.replication.SlotInsight;

/**
 * The slots of one poll that opted in to {@code on-outage} and whose outage budget is
 * below their threshold: what the {@link KeepSizeGuard} raises for, and to how much at
 * most.
 *
 * @param slots their names, in the poll's order
 * @param capMegabytes the highest cap among them (the setting is the server's, one value
 * for all)
 * @param leastSeconds the shortest budget among them
 */
record OutageNeed(List<String> slots, long capMegabytes, double leastSeconds) {

	static OutageNeed of(List<SlotPolicyProperties> policies, List<ReplicationSlot> read,
			Function<String, SlotInsight> insights) {
		List<String> slots = new ArrayList<>();
		long cap = 0;
		double least = Double.MAX_VALUE;
		for (ReplicationSlot slot : read) {
			OnOutageProperties rule = policies.stream()
				.filter((policy) -> policy.name().equals(slot.slotName()))
				.map(SlotPolicyProperties::onOutage)
				.findFirst()
				.orElse(null);
			// A slot a consumer reads is not in an outage, whatever an insight from an
			// earlier poll still says.
			if (rule == null || Boolean.TRUE.equals(slot.active())) {
				continue;
			}
			SlotBudget budget = insights.apply(slot.slotName()).budget();
			if (budget != null && budget.secondsLeft() != null
					&& budget.secondsLeft() < rule.whenBudgetBelow().toSeconds()) {
				slots.add(slot.slotName());
				cap = Math.max(cap, rule.raiseKeepSizeToMegabytes());
				least = Math.min(least, budget.secondsLeft());
			}
		}
		return new OutageNeed(List.copyOf(slots), cap, least);
	}

	boolean isEmpty() {
		return this.slots.isEmpty();
	}

}
