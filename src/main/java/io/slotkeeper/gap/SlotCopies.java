package io.slotkeeper.gap;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import java.util.stream.Collectors;

import io.slotkeeper.sessions.Lsn;
import io.slotkeeper.sessions.SqlIdentifiers;

/**
 * The copies of slots that journals are read from: made of a slot while it still keeps
 * its WAL (a lost slot cannot be copied), decoded through SQL with pgoutput protocol 1
 * and the slot's publications, which consumes the copy only and never the slot its
 * consumer reads, and dropped when the journal ends. A copy's name starts with
 * {@value #PREFIX}, so slot-keeper knows its own and never takes another slot for one.
 */
public final class SlotCopies {

	/** How every copy's name begins. */
	public static final String PREFIX = "slotkeeper_gap_";

	private SlotCopies() {
	}

	/**
	 * The name of a slot's copy: the prefix, as much of the slot's name as fits, and a
	 * hash of the whole name, so that two long names never share a copy.
	 * @param slot the slot's name
	 * @return a name within PostgreSQL's 63 characters, of the characters slot names
	 * allow
	 */
	public static String copyOf(String slot) {
		String hash = HexFormat.of().formatHex(sha256(slot), 0, 4);
		String kept = slot.substring(0, Math.min(slot.length(), 63 - PREFIX.length() - hash.length() - 1));
		return PREFIX + kept + "_" + hash;
	}

	/**
	 * Copies a slot: the copy starts where the slot is, with its plugin.
	 * @param connection a session on the slot's database
	 * @param slot the slot
	 * @return the copy's name
	 * @throws SQLException when the slot cannot be copied: gone, lost ("doesn't reserve
	 * WAL"), or no free replication slot
	 */
	public static String copy(Connection connection, String slot) throws SQLException {
		String copy = copyOf(slot);
		try (PreparedStatement statement = connection
			.prepareStatement("SELECT slot_name FROM pg_catalog.pg_copy_logical_replication_slot(?, ?, false)")) {
			statement.setString(1, slot);
			statement.setString(2, copy);
			statement.execute();
		}
		return copy;
	}

	/**
	 * Whether the server has a replication slot to spare for a copy: one beyond the last,
	 * which is left to the consumers (a new connector's slot, a standby's).
	 * @param connection a session on the server
	 * @return why no copy can be made, {@code null} when one can
	 * @throws SQLException when the settings cannot be read
	 */
	public static String noFreeSlot(Connection connection) throws SQLException {
		try (PreparedStatement statement = connection
			.prepareStatement("SELECT pg_catalog.current_setting('max_replication_slots')::int,"
					+ " (SELECT pg_catalog.count(*) FROM pg_catalog.pg_replication_slots)::int");
				ResultSet result = statement.executeQuery()) {
			result.next();
			int max = result.getInt(1);
			int used = result.getInt(2);
			return (max - used >= 2) ? null
					: "the server has " + Math.max(0, max - used)
							+ " free replication slot(s) of max_replication_slots = " + max
							+ ": a copy would take the last one a consumer may need";
		}
	}

	/**
	 * Drops a copy when it is there.
	 * @param connection a session on the slot's database
	 * @param copy the copy's name; nothing without the prefix is ever dropped
	 * @return whether one was dropped
	 * @throws SQLException when the server refuses
	 */
	public static boolean drop(Connection connection, String copy) throws SQLException {
		if (!copy.startsWith(PREFIX)) {
			throw new IllegalArgumentException("'" + copy + "' is not a copy slot-keeper made");
		}
		try (PreparedStatement statement = connection.prepareStatement("SELECT pg_catalog.pg_drop_replication_slot("
				+ "slot_name) FROM pg_catalog.pg_replication_slots WHERE slot_name = ? AND NOT active")) {
			statement.setString(1, copy);
			try (ResultSet result = statement.executeQuery()) {
				return result.next();
			}
		}
	}

	/**
	 * Decodes the copy's next transactions into a journal and consumes them from the
	 * copy.
	 * @param connection a session on the slot's database
	 * @param copy the copy's name
	 * @param publications the publications its consumer reads
	 * @param upto transactions committed before this LSN only, {@code null} for every one
	 * @param changes stop after the transaction in which this many messages were reached
	 * @param journal the journal fed
	 * @return how many messages were decoded; 0 when the copy is at its end
	 * @throws SQLException when decoding fails
	 */
	public static int decode(Connection connection, String copy, List<String> publications, Long upto, int changes,
			GapJournal journal) throws SQLException {
		Page page = peek(connection, copy, publications, upto, changes, journal);
		advance(connection, copy, page.end());
		return page.messages();
	}

	/**
	 * Decodes the copy's next transactions into a journal without consuming them: the
	 * copy is {@linkplain #advance advanced} once the journal is stored, so that an
	 * instance that stops in between decodes them again (the journal takes a transaction
	 * once).
	 * @param connection a session on the slot's database
	 * @param copy the copy's name
	 * @param publications the publications its consumer reads
	 * @param upto transactions committed before this LSN only, {@code null} for every one
	 * flushed
	 * @param changes stop after the transaction in which this many messages were reached
	 * @param journal the journal fed
	 * @return how many messages were decoded and where the copy may be advanced to
	 * @throws SQLException when decoding fails
	 */
	static Page peek(Connection connection, String copy, List<String> publications, Long upto, int changes,
			GapJournal journal) throws SQLException {
		long bound = (upto != null) ? upto : flushed(connection);
		String names = publications.stream().map(SqlIdentifiers::quote).collect(Collectors.joining(","));
		List<byte[]> messages = new ArrayList<>();
		try (PreparedStatement statement = connection
			.prepareStatement("SELECT data FROM pg_catalog.pg_logical_slot_peek_binary_changes(?, ?::pg_lsn, ?,"
					+ " 'proto_version', '1', 'publication_names', ?)")) {
			statement.setString(1, copy);
			statement.setString(2, Lsn.format(bound));
			statement.setInt(3, changes);
			statement.setString(4, names);
			try (ResultSet result = statement.executeQuery()) {
				while (result.next()) {
					messages.add(result.getBytes(1));
				}
			}
		}
		messages.forEach((data) -> journal.apply(PgOutputReader.read(data)));
		// Cut short, decoding ended at a commit; else it read every transaction committed
		// before the bound, those that carried none of the publications' changes too.
		if (messages.size() < changes) {
			journal.readTo(bound);
		}
		return new Page(messages.size(), journal.position());
	}

	/**
	 * Consumes a copy up to a position, when it is not there yet.
	 * @param connection a session on the slot's database
	 * @param copy the copy's name
	 * @param to the position
	 * @throws SQLException when the server refuses
	 */
	static void advance(Connection connection, String copy, long to) throws SQLException {
		try (PreparedStatement statement = connection
			.prepareStatement("SELECT pg_catalog.pg_replication_slot_advance(slot_name, ?::pg_lsn)"
					+ " FROM pg_catalog.pg_replication_slots WHERE slot_name = ? AND confirmed_flush_lsn < ?::pg_lsn")) {
			statement.setString(1, Lsn.format(to));
			statement.setString(2, copy);
			statement.setString(3, Lsn.format(to));
			statement.execute();
		}
	}

	/**
	 * Where a copy's consumption has reached.
	 * @param connection a session on the slot's database
	 * @param copy the copy's name
	 * @return its confirmed position, {@code null} when the copy does not exist
	 * @throws SQLException when the catalog cannot be read
	 */
	static Long confirmed(Connection connection, String copy) throws SQLException {
		try (PreparedStatement statement = connection.prepareStatement(
				"SELECT confirmed_flush_lsn::pg_catalog.text FROM pg_catalog.pg_replication_slots WHERE slot_name = ?")) {
			statement.setString(1, copy);
			try (ResultSet result = statement.executeQuery()) {
				return (result.next() && result.getString(1) != null) ? Lsn.parse(result.getString(1)) : null;
			}
		}
	}

	private static long flushed(Connection connection) throws SQLException {
		try (PreparedStatement statement = connection
			.prepareStatement("SELECT pg_catalog.pg_current_wal_flush_lsn()::pg_catalog.text");
				ResultSet result = statement.executeQuery()) {
			result.next();
			return Lsn.parse(result.getString(1));
		}
	}

	/**
	 * A page decoded from a copy.
	 *
	 * @param messages how many messages it held
	 * @param end where the copy may be advanced to once the page is kept
	 */
	record Page(int messages, long end) {
	}

	/**
	 * A table's primary key columns, in the key's order, for a journal's tables whose
	 * replica identity does not name their key.
	 * @param connection a session on the table's database
	 * @param relation the table's oid
	 * @return the columns; empty without a primary key
	 * @throws SQLException when the catalog cannot be read
	 */
	public static List<String> primaryKey(Connection connection, int relation) throws SQLException {
		try (PreparedStatement statement = connection.prepareStatement("SELECT a.attname FROM pg_catalog.pg_index i"
				+ " JOIN pg_catalog.pg_attribute a ON a.attrelid = i.indrelid AND a.attnum = ANY (i.indkey)"
				+ " WHERE i.indrelid = ?::oid AND i.indisprimary"
				+ " ORDER BY pg_catalog.array_position(i.indkey::int2[], a.attnum)")) {
			statement.setLong(1, Integer.toUnsignedLong(relation));
			List<String> columns = new ArrayList<>();
			try (ResultSet result = statement.executeQuery()) {
				while (result.next()) {
					columns.add(result.getString(1));
				}
			}
			return columns;
		}
	}

	/**
	 * Whether the database's text is UTF-8, the only encoding the journal reads keys in.
	 * @param connection a session on the database
	 * @return its encoding's name when it is another, {@code null} when UTF-8
	 * @throws SQLException when the catalog cannot be read
	 */
	public static String otherEncoding(Connection connection) throws SQLException {
		try (PreparedStatement statement = connection
			.prepareStatement("SELECT pg_catalog.pg_encoding_to_char(encoding) FROM pg_catalog.pg_database"
					+ " WHERE datname = pg_catalog.current_database()");
				ResultSet result = statement.executeQuery()) {
			result.next();
			String encoding = result.getString(1);
			return "UTF8".equals(encoding.toUpperCase(Locale.ROOT)) ? null : encoding;
		}
	}

	private static byte[] sha256(String text) {
		try {
			return MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8));
		}
		catch (NoSuchAlgorithmException ex) {
			throw new IllegalStateException(ex);
		}
	}

}
