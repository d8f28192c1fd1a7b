package io.slotkeeper.slot.changing;

import io.slotkeeper.gap.Gap;
import io.slotkeeper.handover.ConnectorHandover;
import io.slotkeeper.lineage.GapDeletes;
import io.slotkeeper.lineage.SlotLineage;
import io.slotkeeper.replication.ReplicationSlot;
import io.slotkeeper.replication.SlotSighting;
import io.slotkeeper.replication.SlotView;
import io.slotkeeper.resnapshot.Resnapshot;
import io.slotkeeper.sessions.Lsn;

/**
 * A slot dropped and created again.
 *
 * @param oldSlot the slot as it was before the drop; for a missing slot, as last seen
 * ({@code null} when never)
 * @param newSlot the slot as created
 * @param skipped the WAL its consumer will never see: re-snapshot what changed in it
 * @param connector what became of its connector (offsets before and after, final state),
 * {@code null} when none is configured
 * @param resnapshot the re-snapshot signal sent for the skipped range, or why none was;
 * {@code null} when the slot's settings ask for none
 * @param lineage the epoch the recreate began for the slot of the primary; {@code null}
 * on a replica
 * @param deletesInGap the rows deleted from the slot's tables while it was lost, which no
 * re-snapshot brings to the consumer, or why they cannot be told; {@code null} on a
 * replica
 * @param gap what the consumer missed, as the slot's gap journal read it: exact per key
 * where it could be; {@code null} when no journal was kept (the consumer was not away
 * long enough, or journals are off), then {@code deletesInGap} is the estimate
 */
public record RecreateResult(SlotView oldSlot, SlotView newSlot, SkippedRange skipped, ConnectorHandover connector,
		Resnapshot resnapshot, SlotLineage lineage, GapDeletes deletesInGap, Gap gap) {

	static RecreateResult of(String node, ReplicationSlot old, ReplicationSlot created, boolean madeByAnother) {
		String from = position(old);
		String to = position(created);
		return new RecreateResult(SlotView.of(node, old), SlotView.of(node, created),
				new SkippedRange(from, to, Lsn.distance(from, to), madeByAnother ? MADE_BY_ANOTHER : null), null, null,
				null, null, null);
	}

	static final String MADE_BY_ANOTHER = "the lost slot was made anew by another session (another healer, such as"
			+ " Patroni) after slot-keeper read it: not dropped again, and the connector handed over to that slot";

	static RecreateResult ofMissing(String slot, SlotSighting lastSeen, SlotView created) {
		String from = (lastSeen != null) ? lastSeen.confirmedFlushLsn() : null;
		String note = "unknown start, from the last confirmed position seen on the previous server"
				+ ((lastSeen != null) ? " (" + lastSeen.server() + ", timeline " + lastSeen.timeline() + ")"
						: ": none was seen since slot-keeper started");
		return new RecreateResult((lastSeen != null) ? SlotView.missing(created.node(), slot, lastSeen) : null, created,
				new SkippedRange(from, position(created.slot()), null, note), null, null, null, null, null);
	}

	/**
	 * A slot another manages ({@code managed-by}) made anew after it was lost or went
	 * missing: nothing was dropped or created by slot-keeper; the gap runs from where the
	 * slot was last seen to where the new one starts.
	 */
	static RecreateResult ofMadeAnew(String node, SlotSighting lastSeen, ReplicationSlot made, String manager) {
		String from = lastSeen.confirmedFlushLsn();
		String to = position(made);
		return new RecreateResult(SlotView.missing(node, made.slotName(), lastSeen), SlotView.of(node, made),
				new SkippedRange(from, to, (from != null && to != null) ? Lsn.distance(from, to) : null,
						"made anew by " + manager
								+ " (the slot's managed-by), which slot-keeper never drops or creates; its connector"
								+ " was handed over to it"),
				null, null, null, null, null);
	}

	// Where a consumer is, or starts: a logical slot's confirmed flush LSN, a physical
	// slot's restart LSN.
	private static String position(ReplicationSlot slot) {
		return slot.logical() ? slot.confirmedFlushLsn() : slot.restartLsn();
	}

	RecreateResult withConnector(ConnectorHandover outcome) {
		return new RecreateResult(this.oldSlot, this.newSlot, this.skipped, outcome, this.resnapshot, this.lineage,
				this.deletesInGap, this.gap);
	}

	RecreateResult withResnapshot(Resnapshot sent) {
		return new RecreateResult(this.oldSlot, this.newSlot, this.skipped, this.connector, sent, this.lineage,
				this.deletesInGap, this.gap);
	}

	RecreateResult withLineage(SlotLineage began) {
		return new RecreateResult(this.oldSlot, this.newSlot, this.skipped, this.connector, this.resnapshot, began,
				this.deletesInGap, this.gap);
	}

	RecreateResult withDeletes(GapDeletes counted) {
		return new RecreateResult(this.oldSlot, this.newSlot, this.skipped, this.connector, this.resnapshot,
				this.lineage, counted, this.gap);
	}

	RecreateResult withGap(Gap journaled) {
		return new RecreateResult(this.oldSlot, this.newSlot, this.skipped, this.connector, this.resnapshot,
				this.lineage, this.deletesInGap, journaled);
	}

	/**
	 * The LSN range a recreate skips.
	 *
	 * @param fromLsn where the consumer was: the old slot's confirmed flush LSN (its
	 * restart LSN for a physical slot)
	 * @param toLsn where the new slot starts: its consistent point
	 * @param bytes the range's size, {@code null} when the old position was unknown or on
	 * another server
	 * @param note what is uncertain about the range, {@code null} when nothing is: for a
	 * slot recreated because it was missing, its start is on another server's history
	 */
	public record SkippedRange(String fromLsn, String toLsn, Long bytes, String note) {

		/**
		 * Where the new slot starts, the position its connector is handed over to.
		 * @return the position, {@code null} when unknown
		 */
		public Long toPosition() {
			return (this.toLsn != null) ? Lsn.parse(this.toLsn) : null;
		}

	}

}
