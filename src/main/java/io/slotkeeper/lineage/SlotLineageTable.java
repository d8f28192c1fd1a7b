package io.slotkeeper.lineage;

import java.sql.Array;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import tools.jackson.databind.json.JsonMapper;
import io.slotkeeper.sessions.OwnTables;

/**
 * The table of the slots' lineage in a target's database ({@value #TABLE}, in a schema of
 * slot-keeper's own): read only where slot-keeper made it, made at the first recreate,
 * its later columns added then.
 */
final class SlotLineageTable {

	static final String TABLE = "slotkeeper.slot_lineage";

	// Added after the table's first version: a table made by it gets them at the next
	// recreate.
	private static final String RESNAPSHOT_COLUMNS = "resnapshot_at timestamptz, resnapshot_read text[],"
			+ " resnapshot_skipped text[], gap_deletes text";

	// One statement, one lock of the table: a table of the first version gets every
	// column at once.
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

	// A table made before the re-snapshot columns lacks them until the next recreate adds
	// them.
	private static final String UNDEFINED_COLUMN = "42703";

	private static final String NEXT = "INSERT INTO " + TABLE + " AS l (slot, epoch, recreated_at,"
			+ " previous_confirmed_flush_lsn, gap_deletes) VALUES (?, 2, ?, ?::pg_lsn, ?) ON CONFLICT (slot) DO UPDATE"
			+ " SET epoch = l.epoch + 1, recreated_at = EXCLUDED.recreated_at,"
			+ " previous_confirmed_flush_lsn = EXCLUDED.previous_confirmed_flush_lsn, gap_deletes ="
			+ " EXCLUDED.gap_deletes, resnapshot_at = NULL, resnapshot_read = NULL, resnapshot_skipped = NULL"
			+ " RETURNING epoch";

	private SlotLineageTable() {
	}

	// Empty where the table is not slot-keeper's or lacks the later columns (until the
	// next recreate adds them).
	static Map<String, SlotLineage> read(Connection connection) throws SQLException {
		Map<String, SlotLineage> found = new HashMap<>();
		if (!OwnTables.exists(connection, TABLE, true)) {
			return found;
		}
		try (Statement statement = connection.createStatement(); ResultSet row = statement.executeQuery(READ)) {
			while (row.next()) {
				Timestamp resnapshotAt = row.getTimestamp(5);
				found.put(row.getString(1),
						new SlotLineage(row.getInt(2), row.getTimestamp(3).toInstant(), row.getString(4),
								(resnapshotAt != null) ? new SlotLineage.Resnapshotted(resnapshotAt.toInstant(),
										texts(row.getArray(6)), texts(row.getArray(7))) : null,
								deletes(row.getString(8))));
			}
		}
		catch (SQLException ex) {
			if (!UNDEFINED_COLUMN.equals(ex.getSQLState())) {
				throw ex;
			}
			return Map.of();
		}
		return found;
	}

	// The epoch started.
	static int next(Connection connection, String slot, Instant at, String previousConfirmedFlushLsn,
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
				return row.getInt(1);
			}
		}
	}

	static void deletesCounted(Connection connection, String slot, int epoch, GapDeletes counted) throws SQLException {
		if (!OwnTables.exists(connection, TABLE, true)) {
			return;
		}
		try (PreparedStatement statement = connection.prepareStatement(DELETES)) {
			statement.setString(1, JSON.writeValueAsString(counted));
			statement.setString(2, slot);
			statement.setInt(3, epoch);
			statement.executeUpdate();
		}
	}

	static void resnapshotted(Connection connection, String slot, int epoch, SlotLineage.Resnapshotted sent)
			throws SQLException {
		if (!OwnTables.exists(connection, TABLE, true)) {
			return;
		}
		try (PreparedStatement statement = connection.prepareStatement(RESNAPSHOTTED)) {
			statement.setTimestamp(1, Timestamp.from(sent.at()));
			statement.setArray(2, connection.createArrayOf("text", sent.read().toArray()));
			statement.setArray(3, connection.createArrayOf("text", sent.skipped().toArray()));
			statement.setString(4, slot);
			statement.setInt(5, epoch);
			statement.executeUpdate();
		}
	}

	private static GapDeletes deletes(String json) {
		return (json != null) ? JSON.readValue(json, GapDeletes.class) : null;
	}

	private static List<String> texts(Array array) throws SQLException {
		return (array == null) ? List.of() : List.of((String[]) array.getArray());
	}

}
