package io.slotkeeper.watching;

import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.Test;

import io.slotkeeper.replication.ReplicationSlot;
import io.slotkeeper.replication.SlotBudget;
import io.slotkeeper.replication.SlotInsight;
import io.slotkeeper.replication.SlotView;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A slot's recreation count against the polls around a recreate: a poll that read the
 * slots between the drop and the new slot keeps it; a slot gone for two polls in a row
 * takes it. The outage budget at rest.
 */
class SlotGaugesTests {

	private final SimpleMeterRegistry registry = new SimpleMeterRegistry();

	private final SlotGauges gauges = new SlotGauges("main", this.registry);

	@Test
	void aPollThatReadTheSlotsWhileARecreateHadDroppedItKeepsItsCount() {
		this.gauges.update(List.of(view("cdc")), Instant.EPOCH);
		counted("cdc");

		this.gauges.update(List.of(), Instant.EPOCH);
		this.gauges.update(List.of(view("cdc")), Instant.EPOCH);

		assertThat(count("cdc")).isEqualTo(1.0);
	}

	@Test
	void aSlotGoneForTwoPollsInARowTakesItsCountWithIt() {
		this.gauges.update(List.of(view("cdc")), Instant.EPOCH);
		counted("cdc");

		this.gauges.update(List.of(), Instant.EPOCH);
		assertThat(count("cdc")).as("after one poll without it").isEqualTo(1.0);
		this.gauges.update(List.of(), Instant.EPOCH);

		assertThat(this.registry.find("slotkeeper.slot.recreations").tag("slot", "cdc").counter()).isNull();
	}

	@Test
	void theOutageBudgetIsAllTheTimeThereIsWhileNothingRunsItOutAndAbsentWhileUnknownOrLost() {
		this.gauges
			.update(List.of(inactive("shrinking", "reserved", new SlotBudget(Instant.EPOCH, 60, 1000L, 10.0, 100.0)),
					inactive("unlimited", "reserved", new SlotBudget(Instant.EPOCH, 60, null, 10.0, null)),
					inactive("idle_server", "reserved", new SlotBudget(Instant.EPOCH, 60, 1000L, 0.0, null)),
					inactive("rate_unknown", "reserved", new SlotBudget(Instant.EPOCH, 60, 1000L, null, null)),
					inactive("lost", "lost", null),
					SlotView.of("primary",
							ReplicationSlot.builder()
								.slotName("read")
								.slotType("logical")
								.active(true)
								.walStatus("reserved")
								.build())),
					Instant.EPOCH);

		Map<String, Double> budgets = new TreeMap<>();
		this.registry.find("slotkeeper.slot.outage.budget.seconds")
			.gauges()
			.forEach((gauge) -> budgets.put(gauge.getId().getTag("slot"), gauge.value()));
		assertThat(budgets).containsExactly(Map.entry("idle_server", Double.POSITIVE_INFINITY),
				Map.entry("read", Double.POSITIVE_INFINITY), Map.entry("shrinking", 100.0),
				Map.entry("unlimited", Double.POSITIVE_INFINITY));
	}

	private static SlotView inactive(String slot, String walStatus, SlotBudget budget) {
		return SlotView.of("primary",
				ReplicationSlot.builder().slotName(slot).slotType("logical").active(false).walStatus(walStatus).build())
			.withInsight(new SlotInsight(null, null, null, null, budget, null));
	}

	private static SlotView view(String slot) {
		return SlotView.of("primary",
				ReplicationSlot.builder().slotName(slot).slotType("logical").retainedWalBytes(0L).build());
	}

	private void counted(String slot) {
		Counter.builder("slotkeeper.slot.recreations")
			.tags("target", "main", "node", "primary", "slot", slot)
			.register(this.registry)
			.increment();
	}

	private double count(String slot) {
		return this.registry.find("slotkeeper.slot.recreations").tag("slot", slot).counter().count();
	}

}
