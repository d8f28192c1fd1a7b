package io.slotkeeper.slot;

/**
 * What slot-keeper concluded about a slot at its last poll.
 *
 * @param heartbeatAcknowledged whether the consumer confirmed past the heartbeat due by now; {@code null} unknown
 * @param lastAcknowledgedLsn the latest heartbeat LSN confirmed
 * @param diagnosis why the slot is (not) moving, {@code null} unknown
 * @param secondsToLoss estimated seconds until the slot is lost, {@code null} when unlimited or not shrinking
 */
record SlotInsight(Boolean heartbeatAcknowledged, String lastAcknowledgedLsn, String diagnosis, Double secondsToLoss) {

	static final SlotInsight NONE = new SlotInsight(null, null, null, null);

}
