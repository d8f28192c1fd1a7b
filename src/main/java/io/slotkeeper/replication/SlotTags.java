package io.slotkeeper.replication;

import io.micrometer.core.instrument.Tags;

/**
 * Slot meters' tags: {@code target, slot, slot_type, database} (database empty for
 * physical slots), and {@code node} on meters that any node's slot can have.
 */
public final class SlotTags {

	private SlotTags() {
	}

	/**
	 * The tags of a slot of a target's primary.
	 * @param target the target's name
	 * @param slot the slot
	 * @return the tags
	 */
	public static Tags of(String target, ReplicationSlot slot) {
		return Tags.of("target", target, "slot", slot.slotName(), "slot_type", slot.slotType(), "database",
				(slot.database() != null) ? slot.database() : "");
	}

	/**
	 * The tags of a slot of any node.
	 * @param target the target's name
	 * @param node the node's name
	 * @param slot the slot
	 * @return the tags, with {@code node}
	 */
	public static Tags of(String target, String node, ReplicationSlot slot) {
		return of(target, slot).and("node", node);
	}

}
