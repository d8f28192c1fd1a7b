package io.slotkeeper.lineage;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.Collection;
import java.util.HashMap;
import java.util.Map;
import io.slotkeeper.sessions.Lsn;

/**
 * One reading of a database's table counters ({@code pg_stat_user_tables}, by
 * {@code schema.table}), with the server's WAL insert position and clock read just after
 * them: every change the counters hold was committed before {@code lsn}. Each table's
 * writes ({@code n_tup_ins + n_tup_upd + n_tup_del}), deletes ({@code n_tup_del}) and
 * file ({@code pg_relation_filenode}, which a {@code TRUNCATE} changes without counting a
 * delete).
 *
 * @param at the server's clock when the counters were read
 * @param lsn the WAL insert position read after the counters
 * @param serverVersion {@code server_version_num}
 * @param counts each table's counters
 */
public record TableWrites(Instant at, long lsn, int serverVersion, Map<String, Counts> counts) {

	private static final String COUNTERS = "SELECT schemaname || '.' || relname, n_tup_ins + n_tup_upd + n_tup_del,"
			+ " n_tup_del, pg_catalog.pg_relation_filenode(relid) FROM pg_catalog.pg_stat_user_tables";

	// A separate statement after the counters: its position is later than every commit
	// they count.
	private static final String POSITION = "SELECT pg_catalog.pg_current_wal_insert_lsn()::text,"
			+ " pg_catalog.clock_timestamp(), pg_catalog.current_setting('server_version_num')::int";

	/**
	 * One table's counters.
	 *
	 * @param writes rows inserted, updated and deleted so far
	 * @param deleted rows deleted so far
	 * @param file the table's file, 0 for a table without one (a partitioned table)
	 */
	public record Counts(long writes, long deleted, long file) {
	}

	/**
	 * A reading of write counters alone, deletes unknown.
	 * @param at the server's clock
	 * @param lsn the WAL insert position
	 * @param serverVersion {@code server_version_num}
	 * @param writes rows inserted, updated and deleted so far, by table
	 * @return the reading
	 */
	public static TableWrites ofWrites(Instant at, long lsn, int serverVersion, Map<String, Long> writes) {
		Map<String, Counts> counts = new HashMap<>();
		writes.forEach((table, count) -> counts.put(table, new Counts(count, 0, 0)));
		return new TableWrites(at, lsn, serverVersion, Map.copyOf(counts));
	}

	/**
	 * Reads the counters.
	 * @param connection a session on the primary, in the tables' database, in autocommit
	 * @param tables the tables to read, {@code schema.table} each; {@code null} for every
	 * table
	 * @return the reading
	 * @throws SQLException when the server refuses
	 */
	public static TableWrites read(Connection connection, Collection<String> tables) throws SQLException {
		return read(connection, tables, Integer.MAX_VALUE, null);
	}

	/**
	 * Reads the counters of at most a number of tables, sharing with an earlier reading
	 * each name and each table's counters that did not change, so that readings kept cost
	 * little more than one.
	 * @param connection a session on the primary, in the tables' database, in autocommit
	 * @param tables the tables to read, {@code schema.table} each; {@code null} for every
	 * table
	 * @param most how many tables at most
	 * @param earlier the reading to share with, {@code null} for none
	 * @return the reading, {@code null} when the database has more tables than
	 * {@code most}
	 * @throws SQLException when the server refuses
	 */
	public static TableWrites read(Connection connection, Collection<String> tables, int most, TableWrites earlier)
			throws SQLException {
		Map<String, Counts> counts = new HashMap<>();
		Map<String, Counts> known = (earlier != null) ? earlier.counts() : Map.of();
		Map<String, String> names = new HashMap<>();
		known.keySet().forEach((name) -> names.put(name, name));
		try (PreparedStatement statement = connection
			.prepareStatement(((tables == null) ? COUNTERS : COUNTERS + " WHERE schemaname || '.' || relname = ANY (?)")
					+ " LIMIT ?")) {
			int next = 1;
			if (tables != null) {
				statement.setArray(next++, connection.createArrayOf("text", tables.toArray()));
			}
			statement.setLong(next, (long) most + 1);
			try (ResultSet row = statement.executeQuery()) {
				while (row.next()) {
					if (counts.size() == most) {
						return null;
					}
					String name = names.getOrDefault(row.getString(1), row.getString(1));
					Counts read = new Counts(row.getLong(2), row.getLong(3), row.getLong(4));
					Counts before = known.get(name);
					counts.put(name, read.equals(before) ? before : read);
				}
			}
		}
		try (PreparedStatement statement = connection.prepareStatement(POSITION);
				ResultSet row = statement.executeQuery()) {
			row.next();
			return new TableWrites(row.getTimestamp(2).toInstant(), Lsn.parse(row.getString(1)), row.getInt(3),
					Map.copyOf(counts));
		}
	}

	/**
	 * Whether a table was written to between an earlier reading and this one: its counter
	 * moved (a counter that went down, after a statistics reset or a crash, moved too),
	 * or either reading lacks it.
	 * @param earlier the earlier reading
	 * @param table {@code schema.table}
	 * @return whether it may have changed
	 */
	public boolean movedSince(TableWrites earlier, String table) {
		Counts before = earlier.counts().get(table);
		Counts now = this.counts.get(table);
		return before == null || now == null || before.writes() != now.writes();
	}

}
