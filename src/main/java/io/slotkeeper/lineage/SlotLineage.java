package io.slotkeeper.lineage;

import java.time.Instant;
import java.util.List;

/**
 * Which generation of a slot this is: every recreate by slot-keeper (through the API or
 * healing) starts a new epoch, so that dashboards and consumers can tell a recreated slot
 * from the one before without comparing LSNs.
 *
 * @param epoch 1 for a slot slot-keeper never recreated, then one more with each
 * recreate, and with each drop through slot-keeper (a slot made again by its name later
 * is another slot)
 * @param recreatedAt when the current epoch began (the recreate, or the drop that ended
 * the previous one), {@code null} for the first
 * @param previousConfirmedFlushLsn the last position the previous epoch's consumer
 * confirmed (a physical slot's restart LSN), where the skipped range begins; {@code null}
 * for the first or when unknown
 * @param resnapshot the last re-snapshot signalled in this epoch, {@code null} before one
 * @param deletesInGap the rows deleted from the slot's tables while the previous epoch's
 * slot was lost, which no re-snapshot brings back; {@code null} for the first epoch or
 * when not counted
 */
public record SlotLineage(int epoch, Instant recreatedAt, String previousConfirmedFlushLsn, Resnapshotted resnapshot,
		GapDeletes deletesInGap) {

	/**
	 * A slot slot-keeper never recreated.
	 */
	public static final SlotLineage FIRST = new SlotLineage(1, null, null, null, null);

	/**
	 * The same epoch with its last re-snapshot.
	 * @param sent the re-snapshot
	 * @return the lineage
	 */
	public SlotLineage with(Resnapshotted sent) {
		return new SlotLineage(this.epoch, this.recreatedAt, this.previousConfirmedFlushLsn, sent, this.deletesInGap);
	}

	/**
	 * The same epoch with the deletes counted again.
	 * @param counted the deletes
	 * @return the lineage
	 */
	public SlotLineage with(GapDeletes counted) {
		return new SlotLineage(this.epoch, this.recreatedAt, this.previousConfirmedFlushLsn, this.resnapshot, counted);
	}

	/**
	 * Which tables a re-snapshot in this epoch asked Debezium to read again, and which it
	 * skipped as unchanged.
	 *
	 * @param at when it was signalled
	 * @param read the tables read again
	 * @param skipped the tables left out: no write while the slot was lost
	 */
	public record Resnapshotted(Instant at, List<String> read, List<String> skipped) {
	}

}
