package io.slotkeeper.lineage;

import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The lineage of a target's slots: kept in the target's database (table {@value #TABLE},
 * beside the heal ledger, in a schema of slot-keeper's own), so that every instance and
 * the next owner after a restart know each slot's epoch; held here as last read. The
 * instance that recreates a slot writes it; the others read it again on their heartbeat
 * session every few beats. Where the role may not keep the table, the epoch is counted in
 * this instance's memory.
 */
public final class SlotLineages {

	/**
	 * The table, {@code schema.table}.
	 */
	public static final String TABLE = SlotLineageTable.TABLE;

	private final Map<String, SlotLineage> bySlot = new ConcurrentHashMap<>();

	private volatile long readAt;

	private volatile boolean read;

	/**
	 * A slot's lineage as last known.
	 * @param slot the slot's name
	 * @return its lineage, {@link SlotLineage#FIRST} when none was recorded
	 */
	public SlotLineage of(String slot) {
		return this.bySlot.getOrDefault(slot, SlotLineage.FIRST);
	}

	/**
	 * Whether it is time to read the table again.
	 * @param every how often
	 * @return whether it was never read or not for that long
	 */
	public boolean due(Duration every) {
		return !this.read || System.nanoTime() - this.readAt >= every.toNanos();
	}

	/**
	 * Reads the table, if slot-keeper made it (a table another role made in its place is
	 * not trusted, and not read).
	 * @param connection a session in the target's database
	 * @throws SQLException when the server refuses; the next read is tried when due again
	 */
	public void read(Connection connection) throws SQLException {
		this.readAt = System.nanoTime();
		this.read = true;
		Map<String, SlotLineage> found = SlotLineageTable.read(connection);
		// Epochs only grow: a recreate this instance recorded while the read was under
		// way is not taken back.
		found.forEach((slot, lineage) -> this.bySlot.merge(slot, lineage, SlotLineages::later));
	}

	/**
	 * Starts a slot's next epoch in the table, made when missing.
	 * @param connection a session in the target's database
	 * @param slot the slot's name
	 * @param at when it was recreated
	 * @param previousConfirmedFlushLsn where the previous epoch's consumer was,
	 * {@code null} when unknown
	 * @return the new lineage
	 * @throws SQLException when the server refuses; the epoch is then counted in memory
	 * by the caller
	 */
	public SlotLineage next(Connection connection, String slot, Instant at, String previousConfirmedFlushLsn)
			throws SQLException {
		return next(connection, slot, at, previousConfirmedFlushLsn, null);
	}

	/**
	 * Starts a slot's next epoch in the table, made when missing, with the deletes its
	 * gap lost.
	 * @param connection a session in the target's database
	 * @param slot the slot's name
	 * @param at when it was recreated
	 * @param previousConfirmedFlushLsn where the previous epoch's consumer was,
	 * {@code null} when unknown
	 * @param deletes the deletes counted in the gap, {@code null} when not counted
	 * @return the new lineage
	 * @throws SQLException when the server refuses; the epoch is then counted in memory
	 * by the caller
	 */
	public SlotLineage next(Connection connection, String slot, Instant at, String previousConfirmedFlushLsn,
			GapDeletes deletes) throws SQLException {
		SlotLineage next = new SlotLineage(
				SlotLineageTable.next(connection, slot, at, previousConfirmedFlushLsn, deletes), at,
				previousConfirmedFlushLsn, null, deletes);
		this.bySlot.put(slot, next);
		return next;
	}

	/**
	 * Starts a slot's next epoch in this instance's memory only.
	 * @param slot the slot's name
	 * @param at when it was recreated
	 * @param previousConfirmedFlushLsn where the previous epoch's consumer was,
	 * {@code null} when unknown
	 * @return the new lineage
	 */
	public SlotLineage nextInMemory(String slot, Instant at, String previousConfirmedFlushLsn) {
		return nextInMemory(slot, at, previousConfirmedFlushLsn, null);
	}

	/**
	 * Starts a slot's next epoch in this instance's memory only, with the deletes its gap
	 * lost.
	 * @param slot the slot's name
	 * @param at when it was recreated
	 * @param previousConfirmedFlushLsn where the previous epoch's consumer was,
	 * {@code null} when unknown
	 * @param deletes the deletes counted in the gap, {@code null} when not counted
	 * @return the new lineage
	 */
	public SlotLineage nextInMemory(String slot, Instant at, String previousConfirmedFlushLsn, GapDeletes deletes) {
		return this.bySlot.compute(slot, (name, before) -> new SlotLineage(((before != null) ? before.epoch() : 1) + 1,
				at, previousConfirmedFlushLsn, null, deletes));
	}

	/**
	 * Records the deletes counted again in a recreated slot's current epoch (after the
	 * late-counter recheck), in the table where slot-keeper keeps it, else in memory
	 * only.
	 * @param connection a session in the target's database
	 * @param slot the slot's name
	 * @param counted the deletes
	 * @throws SQLException when the server refuses; they are then recorded in memory
	 */
	public void deletesCounted(Connection connection, String slot, GapDeletes counted) throws SQLException {
		SlotLineage lineage = this.bySlot.computeIfPresent(slot, (name, known) -> known.with(counted));
		if (lineage != null) {
			SlotLineageTable.deletesCounted(connection, slot, lineage.epoch(), counted);
		}
	}

	/**
	 * Records the re-snapshot signalled in a recreated slot's current epoch, in the table
	 * where slot-keeper keeps it (else in memory only); a slot never recreated has no
	 * epoch to record it in.
	 * @param connection a session in the target's database
	 * @param slot the slot's name
	 * @param sent the re-snapshot
	 * @throws SQLException when the server refuses; it is then recorded in memory
	 */
	public void resnapshotted(Connection connection, String slot, SlotLineage.Resnapshotted sent) throws SQLException {
		SlotLineage lineage = this.bySlot.computeIfPresent(slot, (name, known) -> known.with(sent));
		if (lineage != null) {
			SlotLineageTable.resnapshotted(connection, slot, lineage.epoch(), sent);
		}
	}

	// The later epoch, or of one epoch the one with the later re-snapshot, with the
	// deletes of whichever has them.
	private static SlotLineage later(SlotLineage known, SlotLineage read) {
		if (read.epoch() != known.epoch()) {
			return (read.epoch() > known.epoch()) ? read : known;
		}
		boolean newer = read.resnapshot() != null
				&& (known.resnapshot() == null || read.resnapshot().at().isAfter(known.resnapshot().at()));
		SlotLineage kept = newer ? read : known;
		GapDeletes deletes = (read.deletesInGap() != null) ? read.deletesInGap() : known.deletesInGap();
		return kept.with(deletes);
	}

}
