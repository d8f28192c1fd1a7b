package io.slotkeeper.slot.reading;

/**
 * What slot-keeper concluded about a slot at its last poll.
 *
 * @param heartbeatAcknowledged whether the consumer's confirmed position passed the heartbeat written
 * {@code ack-intervals} intervals ago; {@code null} when unknown (another database, no heartbeat yet, standby)
 * @param lastAcknowledgedLsn the latest heartbeat LSN the consumer confirmed
 * @param diagnosis why the slot is (not) moving: {@code ok}, {@code inactive}, {@code consumer not confirming}, the
 * message-mode hint, or {@code invalidated: <reason>}; {@code null} when unknown
 * @param secondsToLoss estimated seconds until the slot is lost, from how fast its {@code safe_wal_size} shrank over
 * the last minute of polls; {@code null} when unlimited or not shrinking
 */
public record SlotInsight(Boolean heartbeatAcknowledged, String lastAcknowledgedLsn, String diagnosis,
		Double secondsToLoss) {

	/**
	 * Nothing concluded.
	 */
	public static final SlotInsight NONE = new SlotInsight(null, null, null, null);

}
