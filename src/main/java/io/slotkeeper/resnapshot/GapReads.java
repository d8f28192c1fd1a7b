package io.slotkeeper.resnapshot;

import java.sql.Array;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import tools.jackson.databind.json.JsonMapper;

import io.slotkeeper.gap.Gap;
import io.slotkeeper.gap.GapJournal;
import io.slotkeeper.sessions.SqlIdentifiers;

/**
 * A re-snapshot of exactly what a gap journal says the consumer missed: per table, only
 * the keys inserted or updated in the gap (Debezium's {@code additional-conditions}), the
 * whole table where the journal cannot tell it key by key, none where nothing of it
 * changed, or only deletes did (no read brings a deleted row back). The filters are built
 * by PostgreSQL itself ({@code format('%I')} and {@code format('%L')}): the key values
 * come from the database, whose owner controls them. A table whose keys do not fit the
 * first signal row is read in slices of keys, a signal row each (Debezium queues each
 * signal's tables with their own condition), or whole where that would take more than
 * {@value #MAX_SIGNALS} signals or read half the table or more, saying so.
 */
final class GapReads {

	private static final JsonMapper JSON = JsonMapper.builder().build();

	// The JSON around the filters: the collections, the type and the keys of each
	// condition.
	private static final int ENVELOPE = 200;

	// At most this many signal rows for one re-snapshot: past it, a table is read whole.
	static final int MAX_SIGNALS = 100;

	private GapReads() {
	}

	/**
	 * Chooses the tables and filters of a signal from a gap.
	 * @param connection a session on the primary
	 * @param gap the gap, complete
	 * @param collections the tables the consumer captures
	 * @param dataLength how many characters the signal table's {@code data} column takes,
	 * {@code null} when any
	 * @return the choice; its answer describes each filter by its number of keys, never a
	 * key
	 * @throws SQLException when a filter cannot be built
	 */
	static Chosen choose(Connection connection, Gap gap, List<String> collections, Integer dataLength)
			throws SQLException {
		List<String> read = new ArrayList<>();
		List<SkippedTable> skipped = new ArrayList<>();
		Map<String, String> filters = new LinkedHashMap<>();
		Map<String, String> described = new LinkedHashMap<>();
		Map<String, String> readWhole = new LinkedHashMap<>();
		for (String table : collections) {
			GapJournal.TableSummary summary = gap.tables().get(table);
			if (summary == null) {
				skipped.add(new SkippedTable(table, "nothing of it changed in the gap (from the gap journal)"));
				continue;
			}
			if (!summary.exact()) {
				read.add(table);
				readWhole.put(table, summary.whyReadWhole());
				continue;
			}
			List<List<String>> keys = changedKeys(gap, table);
			if (keys.isEmpty()) {
				skipped.add(new SkippedTable(table,
						"only " + summary.deleted() + " deletes in the gap: no read brings" + " a deleted row"));
				continue;
			}
			read.add(table);
			filters.put(table, filter(connection, table, summary.keyColumns(), keys));
			described.put(table,
					keys.size() + ((keys.size() == 1) ? " key" : " keys") + " inserted or updated in the gap");
		}
		List<Map<String, String>> more = fit(connection, read, filters, described, readWhole, dataLength, gap);
		String why = "exactly what the gap journal read from " + gap.from() + " to " + gap.to() + ": the keys"
				+ " inserted or updated of each table, whole tables where it cannot tell them";
		return new Chosen(read, new TableChoice(why, skipped, described, readWhole), filters, more);
	}

	// The largest filters leave the first signal until it fits its column: each is split
	// over signals of its own, or read whole where that takes too many signals or reads
	// most of the table anyway.
	private static List<Map<String, String>> fit(Connection connection, List<String> read, Map<String, String> filters,
			Map<String, String> described, Map<String, String> readWhole, Integer dataLength, Gap gap)
			throws SQLException {
		List<Map<String, String>> more = new ArrayList<>();
		if (dataLength == null) {
			return more;
		}
		List<String> first = new ArrayList<>(read);
		while (!filters.isEmpty() && size(first, filters) > dataLength) {
			String largest = filters.entrySet()
				.stream()
				.max(Map.Entry.comparingByValue((one, other) -> Integer.compare(one.length(), other.length())))
				.orElseThrow()
				.getKey();
			String whole = filters.remove(largest);
			String counted = described.remove(largest);
			List<List<String>> keys = changedKeys(gap, largest);
			String cheaper = wholeIsCheaper(connection, largest, keys.size());
			Split split = (cheaper != null) ? new Split(null, cheaper)
					: split(connection, largest, gap.tables().get(largest).keyColumns(), keys, whole.length(),
							dataLength, MAX_SIGNALS - 1 - more.size());
			if (split.filters() == null) {
				readWhole.put(largest, "its " + counted + split.whyNot() + ": read whole");
				continue;
			}
			first.remove(largest);
			split.filters().forEach((filter) -> more.add(Map.of(largest, filter)));
			described.put(largest,
					counted + ", in " + split.filters().size() + " signals of their own (each fits the signal"
							+ " table's data column, " + dataLength + " characters)");
		}
		return more;
	}

	private static List<List<String>> changedKeys(Gap gap, String table) {
		List<List<String>> keys = new ArrayList<>(gap.journal().keys(table, GapJournal.Change.INSERTED));
		keys.addAll(gap.journal().keys(table, GapJournal.Change.UPDATED));
		return keys;
	}

	// Keys in slices, each slice's filter a signal of its own that fits: as many
	// slices as the whole filter's length asks, twice as many while one does not fit.
	private static Split split(Connection connection, String table, List<String> columns, List<List<String>> keys,
			int wholeLength, int dataLength, int signalsLeft) throws SQLException {
		int room = dataLength - size(List.of(table), Map.of(table, ""));
		int slices = Math.max(2, (room > 0) ? (wholeLength + room - 1) / room : Integer.MAX_VALUE);
		while (slices <= signalsLeft) {
			List<String> split = new ArrayList<>();
			int per = Math.max(1, (keys.size() + slices - 1) / slices);
			for (int from = 0; from < keys.size() && split != null; from += per) {
				String filter = filter(connection, table, columns,
						keys.subList(from, Math.min(keys.size(), from + per)));
				if (size(List.of(table), Map.of(table, filter)) <= dataLength) {
					split.add(filter);
				}
				else if (per == 1) {
					return new Split(null, " hold a key that alone does not fit the signal table's data column ("
							+ dataLength + " characters)");
				}
				else {
					split = null;
				}
			}
			if (split != null) {
				return new Split(split, null);
			}
			slices *= 2;
		}
		return new Split(null, " would take more than " + MAX_SIGNALS + " signals of the signal table's data column ("
				+ dataLength + " characters)");
	}

	// The filters of a table's slices, or why it is read whole.
	private record Split(List<String> filters, String whyNot) {
	}

	// A filter split over signals that would read half the table or more reads it whole:
	// one pass over the table instead of a query per slice. The planner's estimate of the
	// table's rows, none before it was first analyzed.
	private static String wholeIsCheaper(Connection connection, String table, int keys) throws SQLException {
		try (PreparedStatement statement = connection
			.prepareStatement("SELECT c.reltuples::bigint FROM pg_catalog.pg_class c WHERE c.oid = ?::regclass")) {
			statement.setString(1, SqlIdentifiers.quoteQualified(table));
			try (ResultSet result = statement.executeQuery()) {
				long rows = result.next() ? result.getLong(1) : 0;
				return (rows > 0 && keys * 2L >= rows) ? " are half or more of its about " + rows
						+ " rows, so one read of the whole table is cheaper" + " than a signal per slice of keys"
						: null;
			}
		}
	}

	private static int size(List<String> read, Map<String, String> filters) {
		try {
			return JSON.writeValueAsString(read).length() + JSON.writeValueAsString(filters).length() + ENVELOPE;
		}
		catch (RuntimeException ex) {
			return Integer.MAX_VALUE;
		}
	}

	/**
	 * The filter that reads exactly the rows of the given keys: runs of an integer key as
	 * ranges, {@code (id BETWEEN 201 AND 400 OR id IN (151, 153))}; any other key as a
	 * list, {@code ("tenant", "id") IN (('a', '1'), ('b', '2'))}; quoted by the server.
	 * @param connection a session
	 * @param table the table, {@code schema.table}
	 * @param columns the key's columns
	 * @param keys each key's values, in text form, in the columns' order
	 * @return the filter
	 * @throws SQLException when the server refuses
	 */
	static String filter(Connection connection, String table, List<String> columns, List<List<String>> keys)
			throws SQLException {
		if (columns.size() == 1 && integer(connection, table, columns.get(0))) {
			return ranges(connection, columns.get(0), keys.stream().map((key) -> key.get(0)).toList());
		}
		return list(connection, columns, keys);
	}

	private static boolean integer(Connection connection, String table, String column) throws SQLException {
		try (PreparedStatement statement = connection.prepareStatement("SELECT a.atttypid::regtype::text IN"
				+ " ('smallint', 'integer', 'bigint') FROM pg_catalog.pg_attribute a WHERE a.attrelid = ?::regclass"
				+ " AND a.attname = ? AND NOT a.attisdropped")) {
			statement.setString(1, SqlIdentifiers.quoteQualified(table));
			statement.setString(2, column);
			try (ResultSet result = statement.executeQuery()) {
				return result.next() && result.getBoolean(1);
			}
		}
	}

	// Gaps and islands: a run of three or more consecutive values is one range.
	private static String ranges(Connection connection, String column, List<String> values) throws SQLException {
		try (PreparedStatement statement = connection.prepareStatement("WITH v AS (SELECT DISTINCT x::numeric AS x"
				+ " FROM pg_catalog.unnest(?::text[]) AS u(x)), g AS (SELECT x, x - pg_catalog.row_number() OVER"
				+ " (ORDER BY x) AS run FROM v), r AS (SELECT pg_catalog.min(x) AS lo, pg_catalog.max(x) AS hi FROM g"
				+ " GROUP BY run) SELECT '(' || pg_catalog.concat_ws(' OR ', (SELECT pg_catalog.string_agg("
				+ "pg_catalog.format('%1$I BETWEEN %2$s AND %3$s', ?::text, lo, hi), ' OR ' ORDER BY lo) FROM r"
				+ " WHERE hi - lo >= 2), (SELECT pg_catalog.format('%I IN (%s)', ?::text, pg_catalog.string_agg("
				+ "x::text, ', ' ORDER BY x)) FROM r, LATERAL pg_catalog.generate_series(lo, hi) AS x WHERE"
				+ " hi - lo < 2 HAVING pg_catalog.count(*) > 0)) || ')'")) {
			statement.setArray(1, connection.createArrayOf("text", values.toArray()));
			statement.setString(2, column);
			statement.setString(3, column);
			try (ResultSet result = statement.executeQuery()) {
				result.next();
				return result.getString(1);
			}
		}
	}

	private static String list(Connection connection, List<String> columns, List<List<String>> keys)
			throws SQLException {
		List<String> values = new ArrayList<>(keys.size() * columns.size());
		keys.forEach(values::addAll);
		try (PreparedStatement statement = connection
			.prepareStatement("SELECT '(' || (SELECT pg_catalog.string_agg(pg_catalog.format('%I', c), ', ' ORDER BY n)"
					+ " FROM pg_catalog.unnest(?::text[]) WITH ORDINALITY AS k(c, n)) || ') IN ('"
					+ " || (SELECT pg_catalog.string_agg(r, ', ' ORDER BY g) FROM (SELECT g, '(' ||"
					+ " pg_catalog.string_agg(pg_catalog.format('%L', v), ', ' ORDER BY n) || ')' AS r"
					+ " FROM pg_catalog.unnest(?::text[]) WITH ORDINALITY AS k(v, n), LATERAL (SELECT (n - 1) / ?"
					+ " AS g) AS grouped GROUP BY g) AS rows) || ')'")) {
			Array names = connection.createArrayOf("text", columns.toArray());
			Array texts = connection.createArrayOf("text", values.toArray());
			statement.setArray(1, names);
			statement.setArray(2, texts);
			statement.setInt(3, columns.size());
			try (ResultSet result = statement.executeQuery()) {
				result.next();
				return result.getString(1);
			}
		}
	}

	/**
	 * How many characters a signal table's {@code data} column takes.
	 * @param connection a session on the primary
	 * @param table the signal table, {@code schema.table}
	 * @return the length, {@code null} when any
	 * @throws SQLException when the catalog cannot be read
	 */
	static Integer dataLength(Connection connection, String table) throws SQLException {
		String[] name = SqlIdentifiers.split(table);
		try (PreparedStatement statement = connection.prepareStatement("SELECT character_maximum_length FROM"
				+ " information_schema.columns WHERE table_schema = ? AND table_name = ? AND column_name = 'data'")) {
			statement.setString(1, name[0]);
			statement.setString(2, name[1]);
			try (ResultSet result = statement.executeQuery()) {
				return result.next() ? (Integer) result.getObject(1) : null;
			}
		}
	}

	/**
	 * A choice and the filters it sends.
	 *
	 * @param read the tables read
	 * @param answer how they were chosen, keys counted, never listed
	 * @param filters the filter of each table read by its keys in the first signal, which
	 * reads every table read
	 * @param more the signals after it, each one table's filter over a slice of its keys
	 */
	record Chosen(List<String> read, TableChoice answer, Map<String, String> filters, List<Map<String, String>> more) {

		/**
		 * The tables of the first signal: every table read but those read in slices.
		 * @return the tables
		 */
		List<String> first() {
			return this.read.stream()
				.filter((table) -> this.more.stream().noneMatch((signal) -> signal.containsKey(table)))
				.toList();
		}
	}

}
