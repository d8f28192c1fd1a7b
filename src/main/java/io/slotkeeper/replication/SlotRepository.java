package io.slotkeeper.replication;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;

import io.slotkeeper.sessions.Node;

/**
 * The SQL that reads slots, one place per query. The listing names only the columns the
 * server's version has; the others are selected as typed NULLs so that every version
 * reads the same way. Values are always bound.
 */
public final class SlotRepository {

	// On a standby the WAL position is what it has replayed; pg_current_wal_lsn() fails
	// during recovery.
	private static final String CURRENT_LSN = "(CASE WHEN pg_catalog.pg_is_in_recovery() THEN pg_catalog.pg_last_wal_replay_lsn()"
			+ " ELSE pg_catalog.pg_current_wal_lsn() END)";

	private SlotRepository() {
	}

	/**
	 * The listing query for a server version.
	 * @param major the server's major version
	 * @param oneSlot whether to select one slot by a bound name
	 * @return the query
	 */
	public static String listing(int major, boolean oneSlot) {
		return "SELECT slot_name, plugin, slot_type, database, temporary, active, active_pid, xmin::text,"
				+ " catalog_xmin::text, restart_lsn::text, confirmed_flush_lsn::text, "
				+ column(major, 13, "wal_status", "text") + ", " + column(major, 13, "safe_wal_size", "bigint") + ", "
				+ column(major, 14, "two_phase", "boolean") + ", " + column(major, 16, "conflicting", "boolean") + ", "
				+ column(major, 17, "inactive_since", "timestamptz") + ", "
				+ column(major, 17, "invalidation_reason", "text") + ", " + column(major, 17, "failover", "boolean")
				+ ", " + column(major, 17, "synced", "boolean") + ", " + column(major, 18, "two_phase_at", "text") + ","
				+ " (" + CURRENT_LSN + " - restart_lsn)::bigint AS retained_wal," + " (" + CURRENT_LSN
				+ " - confirmed_flush_lsn)::bigint AS confirmed_flush_lag,"
				+ " GREATEST(pg_catalog.age(xmin), pg_catalog.age(catalog_xmin))::bigint AS xid_age"
				+ " FROM pg_catalog.pg_replication_slots" + (oneSlot ? " WHERE slot_name = ?" : "");
	}

	private static String column(int major, int since, String name, String type) {
		return ((major >= since) ? name : "NULL") + "::" + type + " AS " + name;
	}

	/**
	 * Every slot of the server.
	 * @param connection a connection to the node
	 * @return the slots by name
	 * @throws SQLException when the server refuses
	 */
	public static List<ReplicationSlot> list(Connection connection) throws SQLException {
		try (PreparedStatement statement = connection.prepareStatement(listing(major(connection), false))) {
			return read(statement);
		}
	}

	/**
	 * One slot.
	 * @param connection a connection to the node
	 * @param slot the slot's name
	 * @return the slot, empty when the server has none of that name
	 * @throws SQLException when the server refuses
	 */
	public static Optional<ReplicationSlot> find(Connection connection, String slot) throws SQLException {
		try (PreparedStatement statement = connection.prepareStatement(listing(major(connection), true))) {
			statement.setString(1, slot);
			return read(statement).stream().findFirst();
		}
	}

	/**
	 * One slot that must exist.
	 * @param connection a connection to the node
	 * @param node the node, named in the problem
	 * @param slot the slot's name
	 * @return the slot
	 * @throws SQLException when the server refuses
	 * @throws io.slotkeeper.problem.ProblemException when the node has no such slot
	 */
	public static ReplicationSlot require(Connection connection, Node node, String slot) throws SQLException {
		return find(connection, slot).orElseThrow(() -> SlotProblems.notFound(node, slot));
	}

	/**
	 * The server's major version.
	 * @param connection a connection to the node
	 * @return for example 17
	 * @throws SQLException when the driver cannot tell
	 */
	public static int major(Connection connection) throws SQLException {
		return connection.getMetaData().getDatabaseMajorVersion();
	}

	/**
	 * Whether the server is a standby.
	 * @param connection a connection to the node
	 * @return whether it is in recovery
	 * @throws SQLException when the server refuses
	 */
	public static boolean inRecovery(Connection connection) throws SQLException {
		return "t".equals(queryForString(connection, "SELECT pg_catalog.pg_is_in_recovery()"));
	}

	/**
	 * The database the session is in.
	 * @param connection a connection to the node
	 * @return the database's name
	 * @throws SQLException when the server refuses
	 */
	public static String currentDatabase(Connection connection) throws SQLException {
		return queryForString(connection, "SELECT pg_catalog.current_database()");
	}

	private static String queryForString(Connection connection, String sql) throws SQLException {
		try (PreparedStatement statement = connection.prepareStatement(sql);
				ResultSet result = statement.executeQuery()) {
			result.next();
			return result.getString(1);
		}
	}

	// By position: a lookup by name for every cell was an eighth of the JVM's work
	// reading a hundred slots, on every
	// poll and listing. The labels are checked once per result, so a column moved in the
	// listing without moving here
	// fails loudly.
	private static List<ReplicationSlot> read(PreparedStatement statement) throws SQLException {
		List<ReplicationSlot> slots = new ArrayList<>();
		try (ResultSet row = statement.executeQuery()) {
			Column.check(row.getMetaData());
			while (row.next()) {
				slots.add(ReplicationSlot.builder()
					.slotName(row.getString(Column.slot_name.at()))
					.plugin(row.getString(Column.plugin.at()))
					.slotType(row.getString(Column.slot_type.at()))
					.database(row.getString(Column.database.at()))
					.temporary(row.getObject(Column.temporary.at(), Boolean.class))
					.active(row.getObject(Column.active.at(), Boolean.class))
					.activePid(row.getObject(Column.active_pid.at(), Integer.class))
					.xmin(row.getString(Column.xmin.at()))
					.catalogXmin(row.getString(Column.catalog_xmin.at()))
					.restartLsn(row.getString(Column.restart_lsn.at()))
					.confirmedFlushLsn(row.getString(Column.confirmed_flush_lsn.at()))
					.walStatus(row.getString(Column.wal_status.at()))
					.safeWalSizeBytes(row.getObject(Column.safe_wal_size.at(), Long.class))
					.twoPhase(row.getObject(Column.two_phase.at(), Boolean.class))
					.twoPhaseAt(row.getString(Column.two_phase_at.at()))
					.conflicting(row.getObject(Column.conflicting.at(), Boolean.class))
					.inactiveSince(row.getObject(Column.inactive_since.at(), OffsetDateTime.class))
					.invalidationReason(row.getString(Column.invalidation_reason.at()))
					.failover(row.getObject(Column.failover.at(), Boolean.class))
					.synced(row.getObject(Column.synced.at(), Boolean.class))
					.retainedWalBytes(row.getObject(Column.retained_wal.at(), Long.class))
					.confirmedFlushLagBytes(row.getObject(Column.confirmed_flush_lag.at(), Long.class))
					.xidAgeTransactions(row.getObject(Column.xid_age.at(), Long.class))
					.build());
			}
		}
		// Sorted here, not by the server, where sorting a hundred rows was a quarter of
		// the query. Slot names are
		// [a-z0-9_] only, so this order is the server's.
		slots.sort(Comparator.comparing(ReplicationSlot::slotName));
		return slots;
	}

	// The listing's columns in the order it selects them.
	private enum Column {

		slot_name, plugin, slot_type, database, temporary, active, active_pid, xmin, catalog_xmin, restart_lsn,
		confirmed_flush_lsn, wal_status, safe_wal_size, two_phase, conflicting, inactive_since, invalidation_reason,
		failover, synced, two_phase_at, retained_wal, confirmed_flush_lag, xid_age;

		private static final Column[] ALL = values();

		int at() {
			return ordinal() + 1;
		}

		static void check(ResultSetMetaData columns) throws SQLException {
			for (Column column : ALL) {
				if (!column.name().equals(columns.getColumnLabel(column.at()))) {
					throw new IllegalStateException("the listing selects " + columns.getColumnLabel(column.at())
							+ " where " + column.name() + " is read");
				}
			}
		}

	}

}
