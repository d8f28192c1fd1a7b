package io.slotkeeper.slot;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The SQL of slots, one place per query. The listing names only the columns the server's version has; the others
 * are selected as typed NULLs so that every version reads the same way. Values are always bound.
 */
final class SlotRepository {

	// On a standby the WAL position is what it has replayed; pg_current_wal_lsn() fails during recovery.
	private static final String CURRENT_LSN = "(CASE WHEN pg_is_in_recovery() THEN pg_last_wal_replay_lsn()"
			+ " ELSE pg_current_wal_lsn() END)";

	private SlotRepository() {
	}

	static boolean inRecovery(Connection connection) throws SQLException {
		return "t".equals(queryForString(connection, "SELECT pg_is_in_recovery()"));
	}

	/**
	 * Logs a running-transactions record on a primary (PostgreSQL 16+), which a standby needs before it can create
	 * a logical slot or move one.
	 */
	static void logStandbySnapshot(Connection primary) throws SQLException {
		queryForString(primary, "SELECT pg_log_standby_snapshot()::text");
	}

	/**
	 * The listing query for a server version.
	 * @param major the server's major version
	 * @param oneSlot whether to select one slot by a bound name
	 * @return the query
	 */
	static String listing(int major, boolean oneSlot) {
		return "SELECT slot_name, plugin, slot_type, database, temporary, active, active_pid, xmin::text,"
				+ " catalog_xmin::text, restart_lsn::text, confirmed_flush_lsn::text, "
				+ column(major, 13, "wal_status", "text") + ", " + column(major, 13, "safe_wal_size", "bigint") + ", "
				+ column(major, 14, "two_phase", "boolean") + ", " + column(major, 16, "conflicting", "boolean") + ", "
				+ column(major, 17, "inactive_since", "timestamptz") + ", "
				+ column(major, 17, "invalidation_reason", "text") + ", " + column(major, 17, "failover", "boolean")
				+ ", " + column(major, 17, "synced", "boolean") + ","
				+ " (" + CURRENT_LSN + " - restart_lsn)::bigint, (" + CURRENT_LSN + " - confirmed_flush_lsn)::bigint"
				+ " FROM pg_replication_slots" + (oneSlot ? " WHERE slot_name = ?" : "") + " ORDER BY slot_name";
	}

	private static String column(int major, int since, String name, String type) {
		return (major >= since) ? name : "NULL::" + type + " AS " + name;
	}

	static List<SlotView> list(Connection connection) throws SQLException {
		try (PreparedStatement statement = connection.prepareStatement(listing(major(connection), false))) {
			return read(statement);
		}
	}

	static Optional<SlotView> find(Connection connection, String slot) throws SQLException {
		try (PreparedStatement statement = connection.prepareStatement(listing(major(connection), true))) {
			statement.setString(1, slot);
			return read(statement).stream().findFirst();
		}
	}

	/**
	 * The last command of every walsender, by process: for a logical consumer its {@code START_REPLICATION} with the
	 * options it asked for. Other roles' sessions show only to a superuser or a member of pg_read_all_stats.
	 */
	static java.util.Map<Integer, String> walsenderCommands(Connection connection) throws SQLException {
		java.util.Map<Integer, String> commands = new java.util.HashMap<>();
		try (PreparedStatement statement = connection
			.prepareStatement("SELECT pid, query FROM pg_stat_activity WHERE backend_type = 'walsender'");
				ResultSet row = statement.executeQuery()) {
			while (row.next()) {
				commands.put(row.getInt(1), row.getString(2));
			}
		}
		return commands;
	}

	static int major(Connection connection) throws SQLException {
		return connection.getMetaData().getDatabaseMajorVersion();
	}

	static String currentDatabase(Connection connection) throws SQLException {
		return queryForString(connection, "SELECT current_database()");
	}

	static void create(Connection connection, SlotSpec spec, int major) throws SQLException {
		String sql;
		if (!spec.logical()) {
			sql = "SELECT lsn::text FROM pg_create_physical_replication_slot(?, true, false)";
		}
		else if (major >= 17) {
			sql = "SELECT lsn::text FROM pg_create_logical_replication_slot(?, ?, false, ?, ?)";
		}
		else if (major >= 14) {
			sql = "SELECT lsn::text FROM pg_create_logical_replication_slot(?, ?, false, ?)";
		}
		else {
			sql = "SELECT lsn::text FROM pg_create_logical_replication_slot(?, ?)";
		}
		try (PreparedStatement statement = connection.prepareStatement(sql)) {
			statement.setString(1, spec.name());
			if (spec.logical()) {
				statement.setString(2, spec.plugin());
				if (major >= 14) {
					statement.setBoolean(3, spec.twoPhase());
				}
				if (major >= 17) {
					statement.setBoolean(4, spec.failover());
				}
			}
			statement.execute();
		}
	}

	static void drop(Connection connection, String slot) throws SQLException {
		try (PreparedStatement statement = connection.prepareStatement("SELECT pg_drop_replication_slot(?)")) {
			statement.setString(1, slot);
			statement.execute();
		}
	}

	static void terminate(Connection connection, int pid) throws SQLException {
		try (PreparedStatement statement = connection.prepareStatement("SELECT pg_terminate_backend(?)")) {
			statement.setInt(1, pid);
			statement.execute();
		}
	}

	private static String queryForString(Connection connection, String sql) throws SQLException {
		try (PreparedStatement statement = connection.prepareStatement(sql); ResultSet result = statement.executeQuery()) {
			result.next();
			return result.getString(1);
		}
	}

	private static List<SlotView> read(PreparedStatement statement) throws SQLException {
		List<SlotView> slots = new ArrayList<>();
		try (ResultSet row = statement.executeQuery()) {
			while (row.next()) {
				slots.add(new SlotView(null, row.getString(1), row.getString(2), row.getString(3), row.getString(4),
						row.getObject(5, Boolean.class), row.getObject(6, Boolean.class), row.getObject(7, Integer.class),
						row.getString(8), row.getString(9), row.getString(10), row.getString(11), row.getString(12),
						row.getObject(13, Long.class), row.getObject(14, Boolean.class), row.getObject(15, Boolean.class),
						row.getObject(16, OffsetDateTime.class), row.getString(17), row.getObject(18, Boolean.class),
						row.getObject(19, Boolean.class), row.getObject(20, Long.class), row.getObject(21, Long.class),
						null, null, null, null, null));
			}
		}
		return slots;
	}

}
