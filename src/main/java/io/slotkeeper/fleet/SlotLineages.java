package io.slotkeeper.fleet;

import java.sql.Array;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Timestamp;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import tools.jackson.databind.json.JsonMapper;

/**
 * The lineage of a target's slots: kept in the target's database (table {@value #TABLE}, beside the heal ledger, in a
 * schema of slot-keeper's own), so that every instance and the next owner after a restart know each slot's epoch; held
 * here as last read. The instance that recreates a slot writes it; the others read it again on their heartbeat session
 * every few beats. Where the role may not keep the table, the epoch is counted in this instance's memory.
 */
public final class SlotLineages {

	/**
	 * The table, {@code schema.table}.
	 */
	public static final String TABLE = "slotkeeper.slot_lineage";

	// Added after the table's first version: a table made by it gets them at the next recreate.
	private static final String RESNAPSHOT_COLUMNS = "resnapshot_at timestamptz, resnapshot_read text[],"
			+ " resnapshot_skipped text[], gap_deletes text";

	// One statement, one lock of the table: a table of the first version gets every column at once.
	private static final String ADD_RESNAPSHOT_COLUMNS = "ALTER TABLE " + TABLE + " ADD COLUMN IF NOT EXISTS "
			+ String.join(", ADD COLUMN IF NOT EXISTS ", RESNAPSHOT_COLUMNS.split(", ?"));

	private static final String COLUMNS = "slot text PRIMARY KEY, epoch integer NOT NULL,"
			+ " recreated_at timestamptz NOT NULL, previous_confirmed_flush_lsn pg_lsn, " + RESNAPSHOT_COLUMNS;

	private static final String READ = "SELECT slot, epoch, recreated_at, previous_confirmed_flush_lsn::text,"
			+ " resnapshot_at, resnapshot_read, resnapshot_skipped, gap_deletes FROM " + TABLE;

	private static final String DELETES = "UPDATE " + TABLE + " SET gap_deletes = ? WHERE slot = ? AND epoch = ?";

	private static final JsonMapper JSON = JsonMapper.builder().build();

	private static final String RESNAPSHOTTED = "UPDATE " + TABLE + " SET resnapshot_at = ?, resnapshot_read = ?,"
			+ " resnapshot_skipped = ? WHERE slot = ? AND epoch = ?";

	// A table made before the re-snapshot columns lacks them until the next recreate adds them.
	private static final String UNDEFINED_COLUMN = "42703";

	private static final String NEXT = "INSERT INTO " + TABLE + " AS l (slot, epoch, recreated_at,"
			+ " previous_confirmed_flush_lsn, gap_deletes) VALUES (?, 2, ?, ?::pg_lsn, ?) ON CONFLICT (slot) DO UPDATE"
			+ " SET epoch = l.epoch + 1, recreated_at = EXCLUDED.recreated_at,"
			+ " previous_confirmed_flush_lsn = EXCLUDED.previous_confirmed_flush_lsn, gap_deletes ="
			+ " EXCLUDED.gap_deletes, resnapshot_at = NULL, resnapshot_read = NULL, resnapshot_skipped = NULL"
			+ " RETURNING epoch";

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
	 * Reads the table, if slot-keeper made it (a table another role made in its place is not trusted, and not read).
	 * @param connection a session in the target's database
	 * @throws SQLException when the server refuses; the next read is tried when due again
	 */
	public void read(Connection connection) throws SQLException {
		this.readAt = System.nanoTime();
		this.read = true;
		if (!OwnTables.exists(connection, TABLE, true)) {
			return;
		}
		Map<String, SlotLineage> found = new HashMap<>();
		try (Statement statement = connection.createStatement(); ResultSet row = statement.executeQuery(READ)) {
			while (row.next()) {
				Timestamp resnapshotAt = row.getTimestamp(5);
				found.put(row.getString(1), new SlotLineage(row.getInt(2), row.getTimestamp(3).toInstant(),
						row.getString(4), (resnapshotAt != null) ? new SlotLineage.Resnapshotted(resnapshotAt.toInstant(),
								texts(row.getArray(6)), texts(row.getArray(7))) : null, deletes(row.getString(8))));
			}
		}
		catch (SQLException ex) {
			if (!UNDEFINED_COLUMN.equals(ex.getSQLState())) {
				throw ex;
			}
			return;
		}
		// Epochs only grow: a recreate this instance recorded while the read was under way is not taken back.
		found.forEach((slot, lineage) -> this.bySlot.merge(slot, lineage, SlotLineages::later));
	}

	/**
	 * Starts a slot's next epoch in the table, made when missing.
	 * @param connection a session in the target's database
	 * @param slot the slot's name
	 * @param at when it was recreated
	 * @param previousConfirmedFlushLsn where the previous epoch's consumer was, {@code null} when unknown
	 * @return the new lineage
	 * @throws SQLException when the server refuses; the epoch is then counted in memory by the caller
	 */
	public SlotLineage next(Connection connection, String slot, Instant at, String previousConfirmedFlushLsn)
			throws SQLException {
		return next(connection, slot, at, previousConfirmedFlushLsn, null);
	}

	/**
	 * Starts a slot's next epoch in the table, made when missing, with the deletes its gap lost.
	 * @param connection a session in the target's database
	 * @param slot the slot's name
	 * @param at when it was recreated
	 * @param previousConfirmedFlushLsn where the previous epoch's consumer was, {@code null} when unknown
	 * @param deletes the deletes counted in the gap, {@code null} when not counted
	 * @return the new lineage
	 * @throws SQLException when the server refuses; the epoch is then counted in memory by the caller
	 */
	public SlotLineage next(Connection connection, String slot, Instant at, String previousConfirmedFlushLsn,
			GapDeletes deletes) throws SQLException {
		OwnTables.create(connection, TABLE, COLUMNS, true);
		try (Statement statement = connection.createStatement()) {
			statement.execute(ADD_RESNAPSHOT_COLUMNS);
		}
		try (PreparedStatement statement = connection.prepareStatement(NEXT)) {
			statement.setString(1, slot);
			statement.setTimestamp(2, Timestamp.from(at));
			statement.setString(3, previousConfirmedFlushLsn);
			statement.setString(4, (deletes != null) ? JSON.writeValueAsString(deletes) : null);
			try (ResultSet row = statement.executeQuery()) {
				row.next();
				SlotLineage next = new SlotLineage(row.getInt(1), at, previousConfirmedFlushLsn, null, deletes);
				this.bySlot.put(slot, next);
				return next;
			}
		}
	}

	/**
	 * Starts a slot's next epoch in this instance's memory only.
	 * @param slot the slot's name
	 * @param at when it was recreated
	 * @param previousConfirmedFlushLsn where the previous epoch's consumer was, {@code null} when unknown
	 * @return the new lineage
	 */
	public SlotLineage nextInMemory(String slot, Instant at, String previousConfirmedFlushLsn) {
		return nextInMemory(slot, at, previousConfirmedFlushLsn, null);
	}

	/**
	 * Starts a slot's next epoch in this instance's memory only, with the deletes its gap lost.
	 * @param slot the slot's name
	 * @param at when it was recreated
	 * @param previousConfirmedFlushLsn where the previous epoch's consumer was, {@code null} when unknown
	 * @param deletes the deletes counted in the gap, {@code null} when not counted
	 * @return the new lineage
	 */
	public SlotLineage nextInMemory(String slot, Instant at, String previousConfirmedFlushLsn, GapDeletes deletes) {
		return this.bySlot.compute(slot, (name, before) -> new SlotLineage(
				((before != null) ? before.epoch() : 1) + 1, at, previousConfirmedFlushLsn, null, deletes));
	}

	/**
	 * Records the deletes counted again in a recreated slot's current epoch (after the late-counter recheck), in the
	 * table where slot-keeper keeps it, else in memory only.
	 * @param connection a session in the target's database
	 * @param slot the slot's name
	 * @param counted the deletes
	 * @throws SQLException when the server refuses; they are then recorded in memory
	 */
	public void deletesCounted(Connection connection, String slot, GapDeletes counted) throws SQLException {
		SlotLineage lineage = this.bySlot.computeIfPresent(slot, (name, known) -> known.with(counted));
		if (lineage == null || !OwnTables.exists(connection, TABLE, true)) {
			return;
		}
		try (PreparedStatement statement = connection.prepareStatement(DELETES)) {
			statement.setString(1, JSON.writeValueAsString(counted));
			statement.setString(2, slot);
			statement.setInt(3, lineage.epoch());
			statement.executeUpdate();
		}
	}

	private static GapDeletes deletes(String json) {
		return (json != null) ? JSON.readValue(json, GapDeletes.class) : null;
	}

	/**
	 * Records the re-snapshot signalled in a recreated slot's current epoch, in the table where slot-keeper keeps it
	 * (else in memory only); a slot never recreated has no epoch to record it in.
	 * @param connection a session in the target's database
	 * @param slot the slot's name
	 * @param sent the re-snapshot
	 * @throws SQLException when the server refuses; it is then recorded in memory
	 */
	public void resnapshotted(Connection connection, String slot, SlotLineage.Resnapshotted sent) throws SQLException {
		SlotLineage lineage = this.bySlot.computeIfPresent(slot, (name, known) -> known.with(sent));
		if (lineage == null || !OwnTables.exists(connection, TABLE, true)) {
			return;
		}
		try (PreparedStatement statement = connection.prepareStatement(RESNAPSHOTTED)) {
			statement.setTimestamp(1, Timestamp.from(sent.at()));
			statement.setArray(2, connection.createArrayOf("text", sent.read().toArray()));
			statement.setArray(3, connection.createArrayOf("text", sent.skipped().toArray()));
			statement.setString(4, slot);
			statement.setInt(5, lineage.epoch());
			statement.executeUpdate();
		}
	}

	// The later epoch, or of one epoch the one with the later re-snapshot, with the deletes of whichever has them.
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

	private static List<String> texts(Array array) throws SQLException {
		return (array == null) ? List.of() : List.of((String[]) array.getArray());
	}

}
