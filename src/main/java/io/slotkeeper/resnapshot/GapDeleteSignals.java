package io.slotkeeper.resnapshot;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import tools.jackson.databind.json.JsonMapper;

import io.slotkeeper.gap.Gap;
import io.slotkeeper.gap.GapJournal;

/**
 * The keys a gap journal saw deleted, as signals for slot-keeper's Debezium extension
 * ({@value #TYPE}): per table whose gap is exact, the deleted keys that do not exist now,
 * in batches of at most {@value #BATCH} keys that each fit the signal table's
 * {@code data} column. A key that exists again (deleted in the gap, inserted after the
 * new slot's start) is left out: its insert reaches the consumer. One that comes back
 * between this check and the signal's commit would be deleted downstream after its
 * insert, so the signalled keys are checked again once the signals are in
 * ({@link #cameBack}), and those that exist are read again.
 */
final class GapDeleteSignals {

	static final String TYPE = "slotkeeper-gap-deletes";

	// The extension refuses more: one signal must stay well within the 10 s Debezium's
	// streaming thread waits for it.
	static final int BATCH = 1000;

	// At most this many signal rows of deletes for one gap: past it, the table's deletes
	// are listed only.
	static final int MAX_SIGNALS = 100;

	private static final JsonMapper JSON = JsonMapper.builder().build();

	private GapDeleteSignals() {
	}

	/**
	 * The signals of a gap's deletes.
	 * @param connection a session on the primary
	 * @param gap the gap, complete
	 * @param collections the tables the consumer captures
	 * @param dataLength how many characters the signal table's {@code data} column takes,
	 * {@code null} when any
	 * @return the signals, the keys each table's signals hold, and per table what was
	 * done, in words (counts only, never a key)
	 * @throws SQLException when the keys cannot be checked
	 */
	static Planned plan(Connection connection, Gap gap, List<String> collections, Integer dataLength)
			throws SQLException {
		List<Map<String, Object>> signals = new ArrayList<>();
		Map<String, List<List<String>>> signalled = new LinkedHashMap<>();
		Map<String, String> described = new LinkedHashMap<>();
		for (String table : collections) {
			GapJournal.TableSummary summary = gap.tables().get(table);
			if (summary == null || summary.deleted() == 0) {
				continue;
			}
			if (!summary.exact()) {
				described.put(table,
						"not signalled: the gap journal cannot tell its keys (" + summary.whyReadWhole() + ")");
				continue;
			}
			List<List<String>> deleted = gap.journal().keys(table, GapJournal.Change.DELETED);
			Set<List<String>> existing = existing(connection, table, summary.keyColumns(), deleted);
			List<List<String>> keys = deleted.stream().filter((key) -> !existing.contains(key)).toList();
			List<Map<String, Object>> batches = batches(table, summary.keyColumns(), keys, dataLength);
			String again = existing.isEmpty() ? ""
					: "; " + existing.size() + " deleted in the gap exist again (inserted since), not signalled";
			if (batches == null) {
				described.put(table, "not signalled: a key does not fit the signal table's data column (" + dataLength
						+ " characters)" + again);
			}
			else if (signals.size() + batches.size() > MAX_SIGNALS) {
				described.put(table, "not signalled: " + keys.size() + " deletes would take more than " + MAX_SIGNALS
						+ " signals" + again);
			}
			else {
				signals.addAll(batches);
				signalled.put(table, keys);
				described.put(table, keys.size() + " deletes signalled (" + batches.size() + " " + TYPE
						+ ((batches.size() == 1) ? " signal" : " signals") + ")" + again);
			}
		}
		return new Planned(signals, signalled, described);
	}

	/**
	 * A gap's deletes, not signalled: each table's only listed, and why.
	 * @param gap the gap
	 * @param collections the tables the consumer captures
	 * @param why why they are not signalled
	 * @return no signals, per table with deletes what was done
	 */
	static Planned listed(Gap gap, List<String> collections, String why) {
		Map<String, String> described = new LinkedHashMap<>();
		for (String table : collections) {
			GapJournal.TableSummary summary = gap.tables().get(table);
			if (summary != null && summary.deleted() > 0) {
				described.put(table, summary.deleted() + " deletes listed at …/gap, not delivered: " + why);
			}
		}
		return new Planned(List.of(), Map.of(), described);
	}

	/**
	 * Of the keys signalled, those that exist now: inserted again while the signals were
	 * written, they must be read again after the deletes.
	 * @param connection a session on the primary
	 * @param gap the gap
	 * @param signalled the keys each table's signals hold
	 * @return per table, the filter that reads the keys that exist now; only tables with
	 * such keys
	 * @throws SQLException when the keys cannot be checked
	 */
	static Map<String, String> cameBack(Connection connection, Gap gap, Map<String, List<List<String>>> signalled)
			throws SQLException {
		Map<String, String> reads = new LinkedHashMap<>();
		for (Map.Entry<String, List<List<String>>> table : signalled.entrySet()) {
			List<String> columns = gap.tables().get(table.getKey()).keyColumns();
			Set<List<String>> back = existing(connection, table.getKey(), columns, table.getValue());
			if (!back.isEmpty()) {
				reads.put(table.getKey(), GapReads.filter(connection, table.getKey(), columns, List.copyOf(back)));
			}
		}
		return reads;
	}

	// The keys that exist, as text: the query is the server's own, its identifiers and
	// values quoted by format().
	private static Set<List<String>> existing(Connection connection, String table, List<String> columns,
			List<List<String>> keys) throws SQLException {
		Set<List<String>> existing = new HashSet<>();
		for (int from = 0; from < keys.size(); from += BATCH) {
			String filter = GapReads.filter(connection, table, columns,
					keys.subList(from, Math.min(keys.size(), from + BATCH)));
			String query;
			try (PreparedStatement build = connection.prepareStatement("SELECT pg_catalog.format('SELECT ARRAY[%s]"
					+ " FROM %s WHERE %s', (SELECT pg_catalog.string_agg(pg_catalog.format('%I::text', c), ', ' ORDER"
					+ " BY n) FROM pg_catalog.unnest(?::text[]) WITH ORDINALITY AS k(c, n)), ?::regclass, ?)")) {
				build.setArray(1, connection.createArrayOf("text", columns.toArray()));
				build.setString(2, io.slotkeeper.sessions.SqlIdentifiers.quoteQualified(table));
				build.setString(3, filter);
				try (ResultSet built = build.executeQuery()) {
					built.next();
					query = built.getString(1);
				}
			}
			try (Statement statement = connection.createStatement(); ResultSet rows = statement.executeQuery(query)) {
				while (rows.next()) {
					existing.add(Arrays.asList((String[]) rows.getArray(1).getArray()));
				}
			}
		}
		return existing;
	}

	// Batches of at most BATCH keys, halved until each signal's data fits the column;
	// null when one key alone does not.
	private static List<Map<String, Object>> batches(String table, List<String> columns, List<List<String>> keys,
			Integer dataLength) {
		List<Map<String, Object>> batches = new ArrayList<>();
		int per = BATCH;
		for (int from = 0; from < keys.size();) {
			Map<String, Object> data = data(table, columns, keys.subList(from, Math.min(keys.size(), from + per)));
			if (dataLength != null && JSON.writeValueAsString(data).length() > dataLength) {
				if (per == 1) {
					return null;
				}
				per = Math.max(1, per / 2);
				continue;
			}
			batches.add(data);
			from += per;
		}
		return batches;
	}

	private static Map<String, Object> data(String table, List<String> columns, List<List<String>> keys) {
		Map<String, Object> data = new LinkedHashMap<>();
		data.put("data-collection", table);
		data.put("key-columns", columns);
		data.put("keys", keys);
		return data;
	}

	/**
	 * A gap's delete signals.
	 *
	 * @param signals each signal's data, in order
	 * @param signalled the keys each table's signals hold
	 * @param described per table with deletes in the gap, what was done with them
	 */
	record Planned(List<Map<String, Object>> signals, Map<String, List<List<String>>> signalled,
			Map<String, String> described) {

	}

}
