package io.slotkeeper.slot;

import io.micrometer.core.instrument.Tags;

/**
 * Slot meters' tags: {@code target, slot, slot_type, database} (database empty for physical slots).
 */
final class SlotMetrics {

	private SlotMetrics() {
	}

	static Tags tags(String target, SlotView slot) {
		return Tags.of("target", target, "slot", slot.slotName(), "slot_type", slot.slotType(), "database",
				(slot.database() != null) ? slot.database() : "");
	}

}
