package io.slotkeeper.slot.changing;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;

import io.slotkeeper.problem.ProblemException;
import io.slotkeeper.problem.ProblemKind;
import io.slotkeeper.sessions.Node;
import io.slotkeeper.sessions.ReplicationConnections;
import io.slotkeeper.sessions.SqlIdentifiers;

/**
 * The SQL that changes slots and the session around a change, one place per statement;
 * values are always bound.
 */
final class SlotStatements {

	private SlotStatements() {
	}

	static void create(Connection connection, SlotSpec spec, int major) throws SQLException {
		String sql;
		if (!spec.logical()) {
			sql = "SELECT lsn::text FROM pg_catalog.pg_create_physical_replication_slot(?, true, false)";
		}
		else if (major >= 17) {
			sql = "SELECT lsn::text FROM pg_catalog.pg_create_logical_replication_slot(?, ?, false, ?, ?)";
		}
		else if (major >= 14) {
			sql = "SELECT lsn::text FROM pg_catalog.pg_create_logical_replication_slot(?, ?, false, ?)";
		}
		else {
			sql = "SELECT lsn::text FROM pg_catalog.pg_create_logical_replication_slot(?, ?)";
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
		catch (SQLException ex) {
			// 58P01: the server has no shared library of that name; the caller named a
			// plugin it does not have.
			if (spec.logical() && "58P01".equals(ex.getSQLState())) {
				throw new ProblemException(ProblemKind.NOT_SUPPORTED,
						"The server has no logical decoding output plugin '" + spec.plugin()
								+ "': nothing was created. Plugins it has: " + pluginsInUse(connection)
								+ " (pgoutput is built in; others, such as wal2json or decoderbufs, are installed on the server)")
					.with("slot", spec.name())
					.with("sqlState", ex.getSQLState());
			}
			throw ex;
		}
	}

	private static String pluginsInUse(Connection connection) throws SQLException {
		java.util.TreeSet<String> plugins = new java.util.TreeSet<>(java.util.List.of("pgoutput"));
		try (PreparedStatement statement = connection.prepareStatement(
				"SELECT DISTINCT plugin FROM" + " pg_catalog.pg_replication_slots WHERE plugin IS NOT NULL");
				ResultSet result = statement.executeQuery()) {
			while (result.next()) {
				plugins.add(result.getString(1));
			}
		}
		return String.join(", ", plugins);
	}

	static void drop(Connection connection, String slot) throws SQLException {
		try (PreparedStatement statement = connection
			.prepareStatement("SELECT pg_catalog.pg_drop_replication_slot(?)")) {
			statement.setString(1, slot);
			statement.execute();
		}
	}

	// The check and the drop in one statement: another healer (Patroni, an operator) that
	// recreated the lost slot since
	// it was read keeps its slot.
	static boolean dropIfLost(Connection connection, String slot) throws SQLException {
		try (PreparedStatement statement = connection.prepareStatement("SELECT pg_catalog.pg_drop_replication_slot("
				+ "slot_name) FROM pg_catalog.pg_replication_slots WHERE slot_name = ? AND wal_status = 'lost'")) {
			statement.setString(1, slot);
			try (ResultSet dropped = statement.executeQuery()) {
				return dropped.next();
			}
		}
	}

	// No SQL function changes a slot's failover flag: only the replication command, whose
	// name cannot be bound.
	static void alterFailover(Node node, String slot, boolean failover) throws SQLException {
		try (Connection replication = ReplicationConnections.open(node);
				Statement statement = replication.createStatement()) {
			statement
				.execute("ALTER_REPLICATION_SLOT " + SqlIdentifiers.quoteSlot(slot) + " ( FAILOVER " + failover + " )");
		}
	}

	// Only while that process still holds that slot: a pid read a moment ago may since
	// belong to another session.
	static void terminate(Connection connection, String slot, int pid) throws SQLException {
		try (PreparedStatement statement = connection.prepareStatement("SELECT pg_catalog.pg_terminate_backend("
				+ "active_pid) FROM pg_catalog.pg_replication_slots WHERE slot_name = ? AND active_pid = ?")) {
			statement.setString(1, slot);
			statement.setInt(2, pid);
			statement.execute();
		}
	}

	static boolean mayUseSlots(Connection connection) throws SQLException {
		try (PreparedStatement statement = connection.prepareStatement(
				"SELECT rolreplication OR rolsuper FROM pg_catalog.pg_roles WHERE rolname = current_user");
				ResultSet result = statement.executeQuery()) {
			return result.next() && result.getBoolean(1);
		}
	}

	static String currentSetting(Connection connection, String name) throws SQLException {
		try (PreparedStatement statement = connection.prepareStatement("SELECT pg_catalog.current_setting(?)")) {
			statement.setString(1, name);
			try (ResultSet result = statement.executeQuery()) {
				result.next();
				return result.getString(1);
			}
		}
	}

	static void setSetting(Connection connection, String name, String value) throws SQLException {
		try (PreparedStatement statement = connection.prepareStatement("SELECT pg_catalog.set_config(?, ?, false)")) {
			statement.setString(1, name);
			statement.setString(2, value);
			statement.execute();
		}
	}

}
