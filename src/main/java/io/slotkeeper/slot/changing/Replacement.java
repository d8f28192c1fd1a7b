package io.slotkeeper.slot.changing;

/**
 * Whether another session made a lost slot anew between slot-keeper's reading of it and
 * its drop.
 */
final class Replacement {

	private volatile boolean made;

	void found() {
		this.made = true;
	}

	boolean made() {
		return this.made;
	}

}
