package io.slotkeeper.slot.changing;

import io.slotkeeper.replication.ReplicationSlot;

/**
 * What a slot is created with.
 *
 * @param name the slot's name
 * @param logical whether it is logical (else physical)
 * @param plugin the output plugin of a logical slot
 * @param twoPhase whether a logical slot decodes prepared transactions (PG 14+)
 * @param failover whether a logical slot is synchronized to standbys (PG 17+)
 */
public record SlotSpec(String name, boolean logical, String plugin, boolean twoPhase, boolean failover) {

	/**
	 * The spec that creates a slot like an existing one.
	 * @param slot the existing slot
	 * @return its spec
	 */
	public static SlotSpec of(ReplicationSlot slot) {
		return new SlotSpec(slot.slotName(), slot.logical(), slot.plugin(), Boolean.TRUE.equals(slot.twoPhase()),
				Boolean.TRUE.equals(slot.failover()));
	}

	String describe() {
		return this.logical
				? "create logical slot " + this.name + " with plugin " + this.plugin
						+ (this.twoPhase ? ", two_phase" : "") + (this.failover ? ", failover" : "")
				: "create physical slot " + this.name + " reserving WAL now";
	}

}
