package io.slotkeeper.replication;

import io.slotkeeper.lineage.SlotLineage;

/**
 * What slot-keeper concluded about a slot at its last poll.
 *
 * @param heartbeatAcknowledged whether the consumer's confirmed position passed the
 * heartbeat written {@code ack-intervals} intervals ago; {@code null} when unknown
 * (another database, no heartbeat yet, standby)
 * @param lastAcknowledgedLsn the latest heartbeat LSN the consumer confirmed
 * @param diagnosis why the slot is (not) moving: {@code ok}, {@code inactive},
 * {@code consumer not confirming}, the message-mode hint, or
 * {@code invalidated: <reason>}; {@code null} when unknown
 * @param secondsToLoss estimated seconds until the slot is lost, from how fast its
 * {@code safe_wal_size} shrank over the last minute of polls; {@code null} when unlimited
 * or not shrinking
 * @param budget for a logical slot no consumer reads, how long it has been gone and how
 * long the slot has left at the server's WAL rate of the last hour; {@code null} while a
 * consumer reads it, once invalidated, or unknown
 * @param lineage which epoch of the slot this is: one more with each recreate by
 * slot-keeper; {@code null} when unknown
 */
public record SlotInsight(Boolean heartbeatAcknowledged, String lastAcknowledgedLsn, String diagnosis,
		Double secondsToLoss, SlotBudget budget, SlotLineage lineage) {

	/**
	 * Nothing concluded.
	 */
	public static final SlotInsight NONE = new SlotInsight(null, null, null, null, null, null);

	/**
	 * The sooner of the two estimates of when the slot is lost: its {@code safe_wal_size}
	 * shrinking over the last minute, and with its consumer gone, the server's WAL rate
	 * of the last hour.
	 * @return seconds, {@code null} when neither is known
	 */
	public Double soonestLoss() {
		Double budgeted = (this.budget != null) ? this.budget.secondsLeft() : null;
		if (this.secondsToLoss == null || budgeted == null) {
			return (this.secondsToLoss != null) ? this.secondsToLoss : budgeted;
		}
		return Math.min(this.secondsToLoss, budgeted);
	}

}
