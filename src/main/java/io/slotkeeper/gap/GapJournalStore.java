package io.slotkeeper.gap;

import java.sql.Array;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import io.slotkeeper.sessions.Lsn;
import io.slotkeeper.sessions.OwnTables;
import io.slotkeeper.sessions.SqlWork;

/**
 * Where a journal is kept so that it survives a restart and a takeover: four tables of
 * slot-keeper's own schema in a database of the journaled slot's server other than the
 * captured one (no publication of the captured database, {@code FOR ALL TABLES} included,
 * ever carries them, and the copy never decodes its own writes). Made on first use and
 * trusted only when slot-keeper's role owns them, as the heal ledger is. Rows are keyed
 * by the slot's name, which is unique on its server. A gap a recreate closed is kept
 * under {@value #CLOSED} and the slot's name (a slot's name never holds a {@code /})
 * until its re-snapshot is sent, so that the next owner completing the recreate's
 * handover reads exactly that gap; a journal of the new slot is kept beside it.
 */
final class GapJournalStore {

	static final String JOURNALS = "slotkeeper.gap_journals";

	static final String TABLES = "slotkeeper.gap_tables";

	static final String KEYS = "slotkeeper.gap_keys";

	static final String EVENTS = "slotkeeper.gap_events";

	/**
	 * What the key of a closed gap starts with.
	 */
	static final String CLOSED = "closed/";

	// A closed gap the re-snapshot never took (the slot no longer asks for one, its
	// connector never ran again) is forgotten after this long.
	private static final String CLOSED_KEPT = "7 days";

	private static final int ROWS_PER_STATEMENT = 500;

	private GapJournalStore() {
	}

	/**
	 * Makes the tables when they are missing and checks that they are slot-keeper's.
	 * @param connection a session on the store's database
	 * @throws SQLException when they cannot be made or are not slot-keeper's to trust
	 */
	static void prepare(Connection connection) throws SQLException {
		OwnTables.create(connection, JOURNALS,
				"slot text PRIMARY KEY, database text NOT NULL, copy text NOT NULL, from_lsn text,"
						+ " position bigint NOT NULL, transactions bigint NOT NULL, since timestamptz NOT NULL,"
						+ " publications text[] NOT NULL, incomplete text, saved_at timestamptz NOT NULL",
				true);
		OwnTables
			.create(connection, TABLES,
					"slot text NOT NULL, tbl text NOT NULL, key_columns text[] NOT NULL, why_not_exact text,"
							+ " truncates bigint[] NOT NULL, overflowed boolean NOT NULL, PRIMARY KEY (slot, tbl)",
					true);
		OwnTables.create(connection, KEYS, "slot text NOT NULL, tbl text NOT NULL, key text[] NOT NULL,"
				+ " lsns bigint[] NOT NULL, kinds text NOT NULL, PRIMARY KEY (slot, tbl, key)", true);
		OwnTables.create(connection, EVENTS, "slot text NOT NULL, seq bigint NOT NULL, tbl text NOT NULL,"
				+ " lsn bigint NOT NULL, columns text[] NOT NULL, vals text[] NOT NULL, PRIMARY KEY (slot, seq)", true);
		// Stores made before outbox events or closed gaps were kept lack their columns.
		addWhenMissing(connection, TABLES, "events_incomplete");
		addWhenMissing(connection, JOURNALS, "closed_to");
	}

	// Altered only when the column is missing, as ALTER TABLE locks the table even when
	// it exists.
	private static void addWhenMissing(Connection connection, String table, String column) throws SQLException {
		boolean missing;
		try (Statement statement = connection.createStatement();
				ResultSet found = statement.executeQuery("SELECT 1 FROM pg_catalog.pg_attribute WHERE attrelid = '"
						+ table + "'::regclass AND attname = '" + column + "' AND NOT attisdropped")) {
			missing = !found.next();
		}
		if (missing) {
			try (Statement alter = connection.createStatement()) {
				alter.execute("ALTER TABLE " + table + " ADD COLUMN IF NOT EXISTS " + column + " text");
			}
		}
	}

	/**
	 * Keeps a slot's journal, stored as far as it read, as the gap a recreate closed: in
	 * one transaction it replaces the slot's last closed gap, with where the gap starts
	 * and ends.
	 * @param connection a session on the store's database
	 * @param slot the slot made anew
	 * @param from where the gap starts (the lost slot's last confirmed position)
	 * @param to where the new slot starts
	 * @throws SQLException when the server refuses
	 */
	static void close(Connection connection, String slot, String from, String to) throws SQLException {
		prepare(connection);
		inOneTransaction(connection, (session) -> {
			deleteRows(connection, CLOSED + slot);
			for (String table : List.of(JOURNALS, TABLES, KEYS, EVENTS)) {
				try (PreparedStatement statement = connection
					.prepareStatement("UPDATE " + table + " SET slot = ? WHERE slot = ?")) {
					statement.setString(1, CLOSED + slot);
					statement.setString(2, slot);
					statement.executeUpdate();
				}
			}
			try (PreparedStatement statement = connection.prepareStatement("UPDATE " + JOURNALS
					+ " SET from_lsn = ?, closed_to = ?, saved_at = pg_catalog.now() WHERE slot = ?")) {
				statement.setString(1, from);
				statement.setString(2, to);
				statement.setString(3, CLOSED + slot);
				statement.executeUpdate();
			}
			return null;
		});
	}

	private static void inOneTransaction(Connection connection, SqlWork<Void> work) throws SQLException {
		boolean autoCommit = connection.getAutoCommit();
		connection.setAutoCommit(false);
		try {
			work.apply(connection);
			connection.commit();
		}
		catch (SQLException | RuntimeException ex) {
			connection.rollback();
			throw ex;
		}
		finally {
			connection.setAutoCommit(autoCommit);
		}
	}

	/**
	 * Stores what changed in a journal since the last save, in one transaction.
	 * @param connection a session on the store's database
	 * @param header the journal's state
	 * @param changes its tables and keys that changed
	 * @param events the outbox events it took since
	 * @throws SQLException when the server refuses
	 */
	static void save(Connection connection, Header header, List<GapJournal.StoredTable> changes,
			List<GapJournal.Event> events) throws SQLException {
		inOneTransaction(connection, (session) -> {
			try (PreparedStatement statement = connection.prepareStatement("INSERT INTO " + JOURNALS
					+ " (slot, database, copy, from_lsn, position, transactions, since, publications, incomplete,"
					+ " saved_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, pg_catalog.now()) ON CONFLICT (slot) DO UPDATE SET"
					+ " database = excluded.database, copy = excluded.copy, from_lsn = excluded.from_lsn,"
					+ " position = excluded.position, transactions = excluded.transactions, since = excluded.since,"
					+ " publications = excluded.publications, incomplete = excluded.incomplete,"
					+ " saved_at = excluded.saved_at")) {
				statement.setString(1, header.slot());
				statement.setString(2, header.database());
				statement.setString(3, header.copy());
				statement.setString(4, header.from());
				statement.setLong(5, header.position());
				statement.setLong(6, header.transactions());
				statement.setTimestamp(7, Timestamp.from(header.since()));
				statement.setArray(8, connection.createArrayOf("text", header.publications().toArray()));
				statement.setString(9, header.incomplete());
				statement.executeUpdate();
			}
			saveTables(connection, header.slot(), changes);
			saveEvents(connection, header, events);
			return null;
		});
	}

	// Events before the gap's start are the consumer's already: forgotten here as the
	// journal forgets them.
	private static void saveEvents(Connection connection, Header header, List<GapJournal.Event> events)
			throws SQLException {
		if (header.from() != null) {
			try (PreparedStatement statement = connection
				.prepareStatement("DELETE FROM " + EVENTS + " WHERE slot = ? AND lsn < ?")) {
				statement.setString(1, header.slot());
				statement.setLong(2, Lsn.parse(header.from()));
				statement.executeUpdate();
			}
		}
		try (PreparedStatement statement = connection.prepareStatement("INSERT INTO " + EVENTS
				+ " (slot, seq, tbl, lsn, columns, vals) VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (slot, seq) DO NOTHING")) {
			for (GapJournal.Event event : events) {
				statement.setString(1, header.slot());
				statement.setLong(2, event.sequence());
				statement.setString(3, event.table());
				statement.setLong(4, event.lsn());
				statement.setArray(5, connection.createArrayOf("text", event.columns().toArray()));
				statement.setArray(6, connection.createArrayOf("text", event.values().toArray()));
				statement.addBatch();
			}
			statement.executeBatch();
		}
	}

	private static void saveTables(Connection connection, String slot, List<GapJournal.StoredTable> changes)
			throws SQLException {
		try (PreparedStatement table = connection.prepareStatement("INSERT INTO " + TABLES
				+ " (slot, tbl, key_columns, why_not_exact, truncates, overflowed, events_incomplete)"
				+ " VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT (slot, tbl) DO UPDATE SET"
				+ " key_columns = excluded.key_columns, why_not_exact = excluded.why_not_exact,"
				+ " truncates = excluded.truncates, overflowed = excluded.overflowed,"
				+ " events_incomplete = excluded.events_incomplete");
				PreparedStatement clear = connection
					.prepareStatement("DELETE FROM " + KEYS + " WHERE slot = ? AND tbl = ?")) {
			for (GapJournal.StoredTable each : changes) {
				table.setString(1, slot);
				table.setString(2, each.name());
				table.setArray(3, connection.createArrayOf("text", each.keyColumns().toArray()));
				table.setString(4, each.whyNotExact());
				table.setArray(5, connection.createArrayOf("bigint", each.truncates().toArray()));
				table.setBoolean(6, each.overflowed());
				table.setString(7, each.eventsIncomplete());
				table.addBatch();
				if (each.cleared()) {
					clear.setString(1, slot);
					clear.setString(2, each.name());
					clear.addBatch();
				}
			}
			table.executeBatch();
			clear.executeBatch();
		}
		List<Object[]> rows = new ArrayList<>();
		for (GapJournal.StoredTable each : changes) {
			for (Map.Entry<List<String>, GapJournal.StoredKey> entry : each.keys().entrySet()) {
				rows.add(new Object[] { slot, each.name(), connection.createArrayOf("text", entry.getKey().toArray()),
						connection.createArrayOf("bigint", Arrays.stream(entry.getValue().lsns()).boxed().toArray()),
						entry.getValue().kinds() });
			}
		}
		for (int from = 0; from < rows.size(); from += ROWS_PER_STATEMENT) {
			saveKeys(connection, rows.subList(from, Math.min(rows.size(), from + ROWS_PER_STATEMENT)));
		}
	}

	// Many rows to a statement: a round trip per key made storing three times slower
	// than decoding.
	private static void saveKeys(Connection connection, List<Object[]> rows) throws SQLException {
		String values = String.join(", ", java.util.Collections.nCopies(rows.size(), "(?, ?, ?, ?, ?)"));
		try (PreparedStatement statement = connection.prepareStatement("INSERT INTO " + KEYS
				+ " (slot, tbl, key, lsns, kinds) VALUES " + values + " ON CONFLICT (slot, tbl, key)"
				+ " DO UPDATE SET lsns = excluded.lsns, kinds = excluded.kinds")) {
			int index = 1;
			for (Object[] row : rows) {
				for (Object value : row) {
					statement.setObject(index++, value);
				}
			}
			statement.executeUpdate();
		}
	}

	/**
	 * The journal kept of a slot, when one is.
	 * @param connection a session on the store's database
	 * @param slot the slot
	 * @return its state and its tables
	 * @throws SQLException when the server refuses
	 */
	static Optional<Stored> load(Connection connection, String slot) throws SQLException {
		if (!OwnTables.exists(connection, JOURNALS, true)) {
			return Optional.empty();
		}
		// A store an earlier version made lacks what this one keeps.
		prepare(connection);
		Header header;
		String closedTo;
		try (PreparedStatement statement = connection.prepareStatement("SELECT database, copy, from_lsn, position,"
				+ " transactions, since, publications, incomplete, closed_to FROM " + JOURNALS + " WHERE slot = ?")) {
			statement.setString(1, slot);
			try (ResultSet result = statement.executeQuery()) {
				if (!result.next()) {
					return Optional.empty();
				}
				header = new Header(slot, result.getString(1), result.getString(2), result.getString(3),
						result.getLong(4), result.getLong(5), result.getTimestamp(6).toInstant(),
						strings(result.getArray(7)), result.getString(8));
				closedTo = result.getString(9);
			}
		}
		Map<String, GapJournal.StoredTable> tables = new LinkedHashMap<>();
		try (PreparedStatement statement = connection.prepareStatement("SELECT tbl, key_columns, why_not_exact,"
				+ " truncates, overflowed, events_incomplete FROM " + TABLES + " WHERE slot = ? ORDER BY tbl")) {
			statement.setString(1, slot);
			try (ResultSet result = statement.executeQuery()) {
				while (result.next()) {
					Long[] truncates = (Long[]) result.getArray(4).getArray();
					tables.put(result.getString(1),
							new GapJournal.StoredTable(result.getString(1), strings(result.getArray(2)),
									result.getString(3), List.of(truncates), result.getBoolean(5), result.getString(6),
									false, new LinkedHashMap<>()));
				}
			}
		}
		try (PreparedStatement statement = connection
			.prepareStatement("SELECT tbl, key, lsns, kinds FROM " + KEYS + " WHERE slot = ?")) {
			statement.setString(1, slot);
			statement.setFetchSize(10_000);
			boolean autoCommit = connection.getAutoCommit();
			// PgJDBC fetches in pages only inside a transaction.
			connection.setAutoCommit(false);
			try (ResultSet result = statement.executeQuery()) {
				while (result.next()) {
					GapJournal.StoredTable table = tables.get(result.getString(1));
					if (table != null) {
						Long[] lsns = (Long[]) result.getArray(3).getArray();
						table.keys()
							.put(strings(result.getArray(2)), new GapJournal.StoredKey(
									Arrays.stream(lsns).mapToLong(Long::longValue).toArray(), result.getString(4)));
					}
				}
			}
			finally {
				connection.commit();
				connection.setAutoCommit(autoCommit);
			}
		}
		List<GapJournal.Event> events = new ArrayList<>();
		try (PreparedStatement statement = connection
			.prepareStatement("SELECT seq, lsn, tbl, columns, vals FROM " + EVENTS + " WHERE slot = ? ORDER BY seq")) {
			statement.setString(1, slot);
			try (ResultSet result = statement.executeQuery()) {
				while (result.next()) {
					events.add(new GapJournal.Event(result.getLong(1), result.getLong(2), result.getString(3),
							strings(result.getArray(4)), Arrays.asList((String[]) result.getArray(5).getArray())));
				}
			}
		}
		return Optional.of(new Stored(header, new ArrayList<>(tables.values()), events, closedTo));
	}

	/**
	 * Forgets the journal of a slot.
	 * @param connection a session on the store's database
	 * @param slot the slot
	 * @throws SQLException when the server refuses
	 */
	static void delete(Connection connection, String slot) throws SQLException {
		if (!OwnTables.exists(connection, JOURNALS, true)) {
			return;
		}
		// A store an earlier version made lacks what this one keeps.
		prepare(connection);
		deleteRows(connection, slot);
	}

	private static void deleteRows(Connection connection, String slot) throws SQLException {
		for (String table : List.of(EVENTS, KEYS, TABLES, JOURNALS)) {
			try (PreparedStatement statement = connection
				.prepareStatement("DELETE FROM " + table + " WHERE slot = ?")) {
				statement.setString(1, slot);
				statement.executeUpdate();
			}
		}
	}

	/**
	 * Forgets every journal whose copy no longer exists on the server: a journal is
	 * adopted only through its copy, so such rows (an owner stopped between dropping the
	 * copy and deleting them, or could not delete them) are never read again. One
	 * statement, so that a journal started meanwhile is either seen with its copy or not
	 * seen at all. A closed gap, whose copy is gone by design, is forgotten once it is
	 * older than {@value #CLOSED_KEPT}.
	 * @param connection a session on the store's database
	 * @return the slots whose journals were forgotten
	 * @throws SQLException when the server refuses
	 */
	static List<String> sweep(Connection connection) throws SQLException {
		List<String> swept = new ArrayList<>();
		if (!OwnTables.exists(connection, JOURNALS, true)) {
			return swept;
		}
		// A store an earlier version made lacks what this one keeps.
		prepare(connection);
		try (PreparedStatement statement = connection.prepareStatement("WITH stale AS (DELETE FROM " + JOURNALS
				+ " j WHERE (j.closed_to IS NULL AND NOT EXISTS (SELECT 1 FROM pg_catalog.pg_replication_slots s"
				+ " WHERE s.slot_name = j.copy)) OR (j.closed_to IS NOT NULL AND j.saved_at < pg_catalog.now() -"
				+ " interval '" + CLOSED_KEPT + "') RETURNING j.slot), tables AS (DELETE FROM " + TABLES
				+ " WHERE slot IN (SELECT slot FROM stale)), keys AS (DELETE FROM " + KEYS
				+ " WHERE slot IN (SELECT slot FROM stale)), events AS (DELETE FROM " + EVENTS
				+ " WHERE slot IN (SELECT slot FROM stale)) SELECT slot FROM stale ORDER BY slot");
				ResultSet result = statement.executeQuery()) {
			while (result.next()) {
				swept.add(result.getString(1));
			}
		}
		return swept;
	}

	private static List<String> strings(Array array) throws SQLException {
		return List.of((String[]) array.getArray());
	}

	/**
	 * A journal's state, as stored.
	 *
	 * @param slot the journaled slot
	 * @param database its database
	 * @param copy the copy it is read from
	 * @param from where its gap starts
	 * @param position how far it has read
	 * @param transactions how many transactions it has taken
	 * @param since when it started
	 * @param publications the publications it decodes with
	 * @param incomplete why it is incomplete, {@code null} when it is not
	 */
	record Header(String slot, String database, String copy, String from, long position, long transactions,
			Instant since, List<String> publications, String incomplete) {
	}

	/**
	 * A stored journal.
	 *
	 * @param header its state
	 * @param tables its tables with their keys
	 * @param events its outbox events, in order
	 * @param closedTo where the new slot starts, for a gap a recreate closed;
	 * {@code null} for a journal still read
	 */
	record Stored(Header header, List<GapJournal.StoredTable> tables, List<GapJournal.Event> events, String closedTo) {
	}

}
