package io.slotkeeper.fleet;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.Collection;
import java.util.HashMap;
import java.util.Map;

/**
 * One reading of a database's table write counters ({@code n_tup_ins + n_tup_upd + n_tup_del} of
 * {@code pg_stat_user_tables}, by {@code schema.table}), with the server's WAL insert position and clock read just
 * after them: every change the counters hold was committed before {@code lsn}.
 *
 * @param at the server's clock when the counters were read
 * @param lsn the WAL insert position read after the counters
 * @param serverVersion {@code server_version_num}
 * @param writes rows inserted, updated and deleted so far, by table
 */
public record TableWrites(Instant at, long lsn, int serverVersion, Map<String, Long> writes) {

	private static final String COUNTERS = "SELECT schemaname || '.' || relname, n_tup_ins + n_tup_upd + n_tup_del"
			+ " FROM pg_catalog.pg_stat_user_tables";

	// A separate statement after the counters: its position is later than every commit they count.
	private static final String POSITION = "SELECT pg_catalog.pg_current_wal_insert_lsn()::text,"
			+ " pg_catalog.clock_timestamp(), pg_catalog.current_setting('server_version_num')::int";

	/**
	 * Reads the counters.
	 * @param connection a session on the primary, in the tables' database, in autocommit
	 * @param tables the tables to read, {@code schema.table} each; {@code null} for every table
	 * @return the reading
	 * @throws SQLException when the server refuses
	 */
	public static TableWrites read(Connection connection, Collection<String> tables) throws SQLException {
		return read(connection, tables, Integer.MAX_VALUE, null);
	}

	/**
	 * Reads the counters of at most a number of tables, the names of an earlier reading shared.
	 * @param connection a session on the primary, in the tables' database, in autocommit
	 * @param tables the tables to read, {@code schema.table} each; {@code null} for every table
	 * @param most how many tables at most
	 * @param names the names earlier readings hold, each its own key, so that readings kept share one copy of each
	 * name; {@code null} for none
	 * @return the reading, {@code null} when the database has more tables than {@code most}
	 * @throws SQLException when the server refuses
	 */
	public static TableWrites read(Connection connection, Collection<String> tables, int most,
			Map<String, String> names) throws SQLException {
		Map<String, Long> writes = new HashMap<>();
		Map<String, String> known = (names != null) ? names : Map.of();
		try (PreparedStatement statement = connection.prepareStatement(((tables == null) ? COUNTERS
				: COUNTERS + " WHERE schemaname || '.' || relname = ANY (?)") + " LIMIT ?")) {
			int next = 1;
			if (tables != null) {
				statement.setArray(next++, connection.createArrayOf("text", tables.toArray()));
			}
			statement.setLong(next, (long) most + 1);
			try (ResultSet row = statement.executeQuery()) {
				while (row.next()) {
					if (writes.size() == most) {
						return null;
					}
					String name = row.getString(1);
					writes.put(known.getOrDefault(name, name), row.getLong(2));
				}
			}
		}
		try (PreparedStatement statement = connection.prepareStatement(POSITION);
				ResultSet row = statement.executeQuery()) {
			row.next();
			return new TableWrites(row.getTimestamp(2).toInstant(), Lsn.parse(row.getString(1)), row.getInt(3),
					Map.copyOf(writes));
		}
	}

	/**
	 * Whether a table was written to between an earlier reading and this one: its counter moved (a counter that went
	 * down, after a statistics reset or a crash, moved too), or either reading lacks it.
	 * @param earlier the earlier reading
	 * @param table {@code schema.table}
	 * @return whether it may have changed
	 */
	public boolean movedSince(TableWrites earlier, String table) {
		Long before = earlier.writes().get(table);
		Long now = this.writes.get(table);
		return before == null || now == null || !before.equals(now);
	}

}
