package io.slotkeeper.watching;

import java.time.Instant;
import java.util.List;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.Test;

import io.slotkeeper.replication.ReplicationSlot;
import io.slotkeeper.replication.SlotView;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A slot's recreation count against the polls around a recreate: a poll that read the
 * slots between the drop and the new slot keeps it; a slot gone for two polls in a row
 * takes it.
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
