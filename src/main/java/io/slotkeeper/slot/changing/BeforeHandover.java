package io.slotkeeper.slot.changing;

/**
 * Told when a recreate's slot is made and its connector's handover is about to run: what
 * is known of the recreate then (the skipped range, the gap, its deletes) can be recorded
 * before the handover, which waits on Kafka Connect and may outlive the instance.
 */
@FunctionalInterface
public interface BeforeHandover {

	/** Told nothing. */
	BeforeHandover NONE = (recreated, connector) -> {
	};

	/**
	 * The slot is recreated; its connector's handover follows.
	 * @param recreated the recreate, without its connector's outcome and re-snapshot
	 * @param connector the name of the connector handed over
	 */
	void recreated(RecreateResult recreated, String connector);

}
