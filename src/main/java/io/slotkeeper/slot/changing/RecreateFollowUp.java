package io.slotkeeper.slot.changing;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;

import io.slotkeeper.connect.ConnectorHandovers;
import io.slotkeeper.fleet.Node;
import io.slotkeeper.fleet.Target;
import io.slotkeeper.slot.reading.SlotTags;

/**
 * What follows every recreate (through the API, or healing a lost or missing slot): it is counted, and the slot's
 * connector, when one is configured, is handed over to the new slot ({@link ConnectorHandovers}).
 */
final class RecreateFollowUp {

	private final ConnectorHandovers handovers;

	private final MeterRegistry registry;

	RecreateFollowUp(ConnectorHandovers handovers, MeterRegistry registry) {
		this.handovers = handovers;
		this.registry = registry;
	}

	/**
	 * The handover of the slot's connector, planned before the change: {@code null} when it has none.
	 */
	ConnectorHandovers.Handover plan(Target target, String slot) {
		return target.connectorOf(slot).map(this.handovers::plan).orElse(null);
	}

	RecreateResult finish(Node node, RecreateResult recreated, ConnectorHandovers.Handover handover) {
		Counter.builder("slotkeeper.slot.recreations")
			.description("Slots dropped and created again by slot-keeper")
			.tags(SlotTags.of(node.target(), node.name(), recreated.newSlot().slot()))
			.register(this.registry)
			.increment();
		if (handover == null) {
			return recreated;
		}
		String lsn = recreated.newSlot().slot().confirmedFlushLsn();
		return recreated.withConnector(this.handovers.complete(handover,
				(lsn != null) ? lsn : recreated.newSlot().slot().restartLsn()));
	}

}
