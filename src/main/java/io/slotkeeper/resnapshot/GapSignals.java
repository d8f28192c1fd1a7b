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
import java.util.function.BiFunction;

import tools.jackson.databind.json.JsonMapper;

import io.slotkeeper.gap.Gap;
import io.slotkeeper.gap.GapJournal;
import io.slotkeeper.sessions.SqlIdentifiers;

/**
 * What a gap journal saw that no re-read can bring back, as signals for slot-keeper's
 * Debezium extension, each fitting the signal table's {@code data} column:
 * <ul>
 * <li>{@value #DELETES}: per table whose gap is exact, the deleted keys that do not exist
 * now, in batches of at most {@value #BATCH} keys. A key that exists again (deleted in
 * the gap, inserted after the new slot's start) is left out: its insert reaches the
 * consumer. One that comes back between this check and the signal's commit would be
 * deleted downstream after its insert, so the signalled keys are checked again once the
 * signals are in ({@link #cameBack}), and those that exist are read again.</li>
 * <li>{@value #TRUNCATE}: per table truncated in the gap, one truncate event, sent with
 * its whole re-read.</li>
 * <li>{@value #EVENTS}: per outbox table, the rows inserted in the gap (the events its
 * {@code EventRouter} would have routed), in commit order, in batches of at most
 * {@value #EVENT_BATCH}; its deletes are not signalled (the router drops them).</li>
 * </ul>
 */
final class GapSignals {

	static final String DELETES = "slotkeeper-gap-deletes";

	static final String TRUNCATE = "slotkeeper-gap-truncate";

	static final String EVENTS = "slotkeeper-gap-events";

	// The extension refuses more in one signal.
	static final int EVENT_BATCH = 500;

	// The column types the extension reads from text, as PostgreSQL names them.
	private static final Set<String> EVENT_TYPES = Set.of("bool", "int2", "int4", "int8", "float4", "float8", "numeric",
			"text", "varchar", "bpchar", "uuid", "json", "jsonb", "xml", "date", "timestamp", "timestamptz", "bytea");

	// The extension refuses more: one signal must stay well within the 10 s Debezium's
	// streaming thread waits for it.
	static final int BATCH = 1000;

	// At most this many signal rows of deletes for one gap: past it, the table's deletes
	// are listed only.
	static final int MAX_SIGNALS = 100;

	private static final JsonMapper JSON = JsonMapper.builder().build();

	private GapSignals() {
	}

	/**
	 * The signals of a gap's deletes, truncates and outbox events.
	 * @param connection a session on the primary
	 * @param gap the gap, complete
	 * @param collections the tables the consumer captures
	 * @param outboxes the outbox tables among them
	 * @param dataLength how many characters the signal table's {@code data} column takes,
	 * {@code null} when any
	 * @return the signals, the keys each table's delete signals hold, and per table what
	 * was done, in words (counts only, never a key or a value)
	 * @throws SQLException when the keys cannot be checked
	 */
	static Planned plan(Connection connection, Gap gap, List<String> collections, List<String> outboxes,
			Integer dataLength) throws SQLException {
		List<Map.Entry<String, Map<String, Object>>> signals = new ArrayList<>();
		Map<String, List<List<String>>> signalled = new LinkedHashMap<>();
		Map<String, List<String>> keyColumns = new LinkedHashMap<>();
		Words said = new Words();
		for (String table : outboxes) {
			if (!collections.contains(table)) {
				GapJournal.TableSummary summary = gap.tables().get(table);
				if (summary != null && summary.events() > 0) {
					said.notSent(table, summary.events() + " events not signalled: the connector does not capture it");
				}
			}
		}
		for (String table : collections) {
			GapJournal.TableSummary summary = gap.tables().get(table);
			if (summary == null) {
				continue;
			}
			if (!summary.truncates().isEmpty()) {
				signals.add(Map.entry(TRUNCATE, Map.of("data-collection", table)));
				said.sent(table,
						"truncated in the gap: a truncate event signalled with its whole re-read, not yet acknowledged");
			}
			if (outboxes.contains(table)) {
				events(connection, gap, table, dataLength, signals, said);
				continue;
			}
			if (summary.deleted() == 0) {
				continue;
			}
			if (!summary.exact()) {
				String why = "deletes not signalled: the gap journal cannot tell its keys (" + summary.whyReadWhole()
						+ ")";
				// A truncate's event and whole re-read stand for the keys; without one
				// the deletes are lost downstream.
				if (summary.whyNotExact() != null) {
					said.notSent(table, why);
				}
				else {
					said.sent(table, why);
				}
				continue;
			}
			List<List<String>> deleted = gap.journal().keys(table, GapJournal.Change.DELETED);
			List<List<String>> keys = stillDeleted(connection, table, summary.keyColumns(), deleted);
			List<Map<String, Object>> batches = batches(table, summary.keyColumns(), keys, dataLength);
			int back = deleted.size() - keys.size();
			String again = (back == 0) ? ""
					: "; " + back + " deleted in the gap exist again (inserted since), not signalled";
			if (signal(signals, said, table, DELETES, keys.size(), batches,
					"deletes not signalled: a key does not fit the signal table's data column (" + dataLength
							+ " characters)",
					again)) {
				signalled.put(table, keys);
				keyColumns.put(table, summary.keyColumns());
			}
		}
		return new Planned(signals, signalled, keyColumns, said.described, said.notSent);
	}

	// An outbox table's events, whole or not at all: a consumer told of some events is
	// told which were not sent.
	private static void events(Connection connection, Gap gap, String table, Integer dataLength,
			List<Map.Entry<String, Map<String, Object>>> signals, Words said) throws SQLException {
		GapJournal.TableSummary summary = gap.tables().get(table);
		List<GapJournal.Event> events = gap.journal().events(table);
		String incomplete = (summary.eventsIncomplete() != null) ? "; " + summary.eventsIncomplete() : "";
		if (events.isEmpty()) {
			if (!incomplete.isEmpty()) {
				said.notSent(table, "no event kept" + incomplete);
			}
			return;
		}
		String unread = unreadColumn(connection, table, events.get(0).columns());
		if (unread != null) {
			said.notSent(table, events.size() + " events not signalled: " + unread + incomplete);
		}
		else if (signal(signals, said, table, EVENTS, events.size(), eventBatches(table, events, dataLength),
				events.size() + " events not signalled: an event does not fit the signal table's data column ("
						+ dataLength + " characters; widen it to text)",
				incomplete) && !incomplete.isEmpty()) {
			said.notSentAlone(table, incomplete.substring(2));
		}
	}

	// One table's batches, sent whole or not at all within the signals one gap may take;
	// what was done said, followed by what comes after.
	private static boolean signal(List<Map.Entry<String, Map<String, Object>>> signals, Words said, String table,
			String type, int items, List<Map<String, Object>> batches, String tooLarge, String after) {
		String noun = " " + noun(type);
		if (batches == null) {
			said.notSent(table, tooLarge + after);
			return false;
		}
		if (signals.size() + batches.size() > MAX_SIGNALS) {
			said.notSent(table,
					items + noun + " not signalled: they would take more than " + MAX_SIGNALS + " signals" + after);
			return false;
		}
		batches.forEach((data) -> signals.add(Map.entry(type, data)));
		said.sent(table,
				items + noun + " signalled (" + count(batches.size(), type) + "), not yet acknowledged" + after);
		return true;
	}

	// A column of the outbox table whose type the extension does not read from text,
	// said; null when there is none.
	private static String unreadColumn(Connection connection, String table, List<String> columns) throws SQLException {
		try (PreparedStatement statement = connection.prepareStatement("SELECT a.attname, t.typname"
				+ " FROM pg_catalog.pg_attribute a JOIN pg_catalog.pg_type t ON t.oid = a.atttypid"
				+ " WHERE a.attrelid = ?::regclass AND a.attnum > 0 AND NOT a.attisdropped"
				+ " AND a.attname = ANY (?::text[]) ORDER BY a.attnum")) {
			statement.setString(1, SqlIdentifiers.quoteQualified(table));
			statement.setArray(2, connection.createArrayOf("text", columns.toArray()));
			try (ResultSet result = statement.executeQuery()) {
				while (result.next()) {
					if (!EVENT_TYPES.contains(result.getString(2))) {
						return "column " + result.getString(1) + " is of type " + result.getString(2)
								+ ", which the extension does not read";
					}
				}
			}
		}
		return null;
	}

	// Batches of at most EVENT_BATCH events, halved until each fits the column; null
	// when one event alone does not.
	private static List<Map<String, Object>> eventBatches(String table, List<GapJournal.Event> events,
			Integer dataLength) {
		return fitted(events.size(), EVENT_BATCH, dataLength, (from, to) -> {
			Map<String, Object> data = new LinkedHashMap<>();
			data.put("data-collection", table);
			data.put("columns", events.get(from).columns());
			data.put("rows", events.subList(from, to).stream().map(GapJournal.Event::values).toList());
			return data;
		});
	}

	// Per table what was done, and apart what of it was not sent.
	private static final class Words {

		private final Map<String, String> described = new LinkedHashMap<>();

		private final Map<String, String> notSent = new LinkedHashMap<>();

		void sent(String table, String what) {
			this.described.merge(table, what, (before, after) -> before + "; " + after);
		}

		void notSent(String table, String what) {
			sent(table, what);
			notSentAlone(table, what);
		}

		// What the table's words already say.
		void notSentAlone(String table, String what) {
			this.notSent.merge(table, what, (before, after) -> before + "; " + after);
		}

	}

	/**
	 * What a type of signal carries, in words.
	 * @param type the signal's type
	 * @return {@code deletes}, {@code events} or {@code truncates}
	 */
	static String noun(String type) {
		return switch (type) {
			case DELETES -> "deletes";
			case EVENTS -> "events";
			default -> "truncates";
		};
	}

	private static String count(int signals, String type) {
		return signals + " " + type + ((signals == 1) ? " signal" : " signals");
	}

	/**
	 * A gap's deletes and events, not signalled: each table's only listed, and why.
	 * @param gap the gap
	 * @param collections the tables the consumer captures
	 * @param outboxes the outbox tables among them
	 * @param why why they are not signalled
	 * @return no signals, per table with deletes or events what was done
	 */
	static Planned listed(Gap gap, List<String> collections, List<String> outboxes, String why) {
		Words said = new Words();
		for (String table : collections) {
			GapJournal.TableSummary summary = gap.tables().get(table);
			if (summary != null && outboxes.contains(table) && summary.events() > 0) {
				said.notSent(table, summary.events() + " events listed at …/gap, not delivered: " + why);
			}
			else if (summary != null && summary.deleted() > 0) {
				said.notSent(table, summary.deleted() + " deletes listed at …/gap, not delivered: " + why);
			}
		}
		return new Planned(List.of(), Map.of(), Map.of(), said.described, said.notSent);
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
	static Map<String, String> cameBack(Connection connection, Planned planned) throws SQLException {
		Map<String, String> reads = new LinkedHashMap<>();
		for (Map.Entry<String, List<List<String>>> table : planned.signalled().entrySet()) {
			List<String> columns = planned.keyColumns().get(table.getKey());
			Set<List<String>> back = existing(connection, table.getKey(), columns, table.getValue());
			if (!back.isEmpty()) {
				reads.put(table.getKey(), GapReads.filter(connection, table.getKey(), columns, List.copyOf(back)));
			}
		}
		return reads;
	}

	// The deleted keys that do not exist now: one inserted again since is alive, and a
	// delete signalled for it would undo the newer write.
	private static List<List<String>> stillDeleted(Connection connection, String table, List<String> columns,
			List<List<String>> deleted) throws SQLException {
		Set<List<String>> existing = existing(connection, table, columns, deleted);
		return deleted.stream().filter((key) -> !existing.contains(key)).toList();
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
				build.setString(2, SqlIdentifiers.quoteQualified(table));
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
		return fitted(keys.size(), BATCH, dataLength, (from, to) -> data(table, columns, keys.subList(from, to)));
	}

	// Signals' data of items from..to, at most most a signal, halved until each fits the
	// column; null when one item alone does not.
	private static List<Map<String, Object>> fitted(int items, int most, Integer dataLength,
			BiFunction<Integer, Integer, Map<String, Object>> data) {
		List<Map<String, Object>> batches = new ArrayList<>();
		int per = most;
		for (int from = 0; from < items;) {
			Map<String, Object> batch = data.apply(from, Math.min(items, from + per));
			if (dataLength != null && JSON.writeValueAsString(batch).length() > dataLength) {
				if (per == 1) {
					return null;
				}
				per = Math.max(1, per / 2);
				continue;
			}
			batches.add(batch);
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
	 * A gap's signals.
	 *
	 * @param signals each signal's type and data, in order
	 * @param signalled the keys each table's delete signals hold
	 * @param keyColumns the key columns of each table in {@code signalled}
	 * @param described per table with deletes in the gap, what was done with them
	 * @param notSent per table, what of its gap was not sent and why
	 */
	record Planned(List<Map.Entry<String, Map<String, Object>>> signals, Map<String, List<List<String>>> signalled,
			Map<String, List<String>> keyColumns, Map<String, String> described, Map<String, String> notSent) {

		/**
		 * These signals after those of a gap before whose slot was lost again before its
		 * connector read them: sent first, as the older changes; a delete's key that
		 * exists now (inserted again since) is left out, as the gap's own are.
		 * @param connection a session on the primary
		 * @param unanswered the earlier signals, as they were sent
		 * @return the signals of both, and what was done in words
		 * @throws SQLException when the keys cannot be checked
		 */
		Planned after(Connection connection, List<Map.Entry<String, Map<String, Object>>> unanswered)
				throws SQLException {
			if (unanswered.isEmpty()) {
				return this;
			}
			List<Map.Entry<String, Map<String, Object>>> signals = new ArrayList<>();
			Map<String, List<List<String>>> keys = new LinkedHashMap<>();
			Map<String, List<String>> columns = new LinkedHashMap<>();
			Map<String, Integer> carried = new LinkedHashMap<>();
			for (Map.Entry<String, Map<String, Object>> signal : unanswered) {
				Map<String, Object> data = signal.getValue();
				String table = String.valueOf(data.get("data-collection"));
				if (!DELETES.equals(signal.getKey())) {
					signals.add(signal);
					carried.merge(table, 1, Integer::sum);
					continue;
				}
				List<String> keyColumns = strings(data.get("key-columns"));
				List<List<String>> deleted = ((List<?>) data.get("keys")).stream().map(GapSignals::strings).toList();
				List<List<String>> still = stillDeleted(connection, table, keyColumns, deleted);
				if (!still.isEmpty()) {
					Map<String, Object> kept = new LinkedHashMap<>(data);
					kept.put("keys", still);
					signals.add(Map.entry(DELETES, kept));
					keys.computeIfAbsent(table, (each) -> new ArrayList<>()).addAll(still);
					columns.put(table, keyColumns);
					carried.merge(table, 1, Integer::sum);
				}
			}
			signals.addAll(this.signals);
			this.signalled.forEach((table, each) -> keys.computeIfAbsent(table, (t) -> new ArrayList<>()).addAll(each));
			columns.putAll(this.keyColumns);
			Map<String, String> described = new LinkedHashMap<>((this.described != null) ? this.described : Map.of());
			carried.forEach((table, count) -> described.merge(table,
					count + " signal(s) of the gap before sent again"
							+ " first (the slot was lost again before its connector read them)",
					(a, b) -> a + "; " + b));
			return new Planned(signals, keys, columns, described, this.notSent);
		}

	}

	private static List<String> strings(Object value) {
		return (value instanceof List<?> list) ? list.stream().map(String::valueOf).toList() : List.of();
	}

}
