package io.slotkeeper.debezium;

/**
 * What a signal's action did, as its acknowledgement tells slot-keeper.
 *
 * @param emitted how many events it emitted
 * @param asked how many it was asked for
 * @param refused why it emitted nothing, {@code null} when it was not refused
 */
record Outcome(int emitted, int asked, String refused) {

	static Outcome refused(String why) {
		return new Outcome(0, 0, why);
	}

	/**
	 * Whether every event asked for was emitted.
	 * @return whether it was
	 */
	boolean complete() {
		return this.refused == null && this.emitted == this.asked;
	}

}
