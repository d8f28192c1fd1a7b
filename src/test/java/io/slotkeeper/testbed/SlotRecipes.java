package io.slotkeeper.testbed;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;

import io.slotkeeper.gap.GapJournal;
import io.slotkeeper.gap.PrimaryKeys;
import io.slotkeeper.gap.SlotCopies;
import io.slotkeeper.sessions.Lsn;

/**
 * Slot states from the facts page, made on a real server.
 */
public final class SlotRecipes {

	private static final int ROUNDS = 10;

	// Dropped with its session; named after it, so that a session still ending does not
	// hold the name.
	private static final String RUNNING_TRANSACTIONS_RECORD = "SELECT pg_catalog.pg_create_logical_replication_slot("
			+ "'running_xacts_' || pg_catalog.pg_backend_pid(), 'pgoutput', true)";

	private SlotRecipes() {
	}

	/**
	 * A server of its own on which {@link #lose} works:
	 * {@code max_slot_wal_keep_size=1MB}, a database with the recipe's {@code orders}
	 * table and what else is asked; stopped when the JVM exits.
	 * @param database the database to create
	 * @param statements more statements to run in it, such as {@code CREATE PUBLICATION}
	 * @return the started server
	 */
	public static PostgresServer lossyServer(String database, String... statements) {
		PostgresServer server = PostgresTestBed.dedicated(java.util.Map.of("max_slot_wal_keep_size", "1MB"));
		server.execute("postgres", "CREATE DATABASE " + database);
		server.execute(database, "CREATE TABLE orders (id bigserial PRIMARY KEY, item text)");
		if (statements.length > 0) {
			server.execute(database, statements);
		}
		Runtime.getRuntime().addShutdownHook(new Thread(server::close));
		return server;
	}

	/**
	 * Loses a slot in milliseconds on a server with {@code max_slot_wal_keep_size=1MB}:
	 * write a little, switch WAL segments, checkpoint; again, a bounded number of rounds,
	 * while a heartbeat or a consumer moved the slot on in the meantime (as on a busy
	 * machine).
	 * @param server the server
	 * @param database a database with a table {@code orders (id bigserial, item text)}
	 * @param slot the slot to lose
	 */
	public static void lose(PostgresServer server, String database, String slot) {
		lose(server, database, slot, () -> {
		});
	}

	/**
	 * {@link #lose(PostgresServer, String, String)}, running {@code beforeCheckpoint}
	 * before each round's checkpoint.
	 * @param server the server
	 * @param database a database with a table {@code orders (id bigserial, item text)}
	 * @param slot the slot to lose
	 * @param beforeCheckpoint what to wait for first, such as a standby's confirmation
	 */
	public static void lose(PostgresServer server, String database, String slot, Runnable beforeCheckpoint) {
		String status = null;
		// One session for the rounds and the status: a new connection between the
		// CHECKPOINT and the status query gave
		// a healer polling every 200 ms time to recreate the slot, which the next round
		// then lost again (two heals).
		try (Connection connection = server.connect(database); Statement statement = connection.createStatement()) {
			for (int round = 1; round <= ROUNDS && !"lost".equals(status); round++) {
				for (String each : List.of(
						"INSERT INTO orders (item) SELECT 'x' FROM pg_catalog.generate_series(1, 100)",
						"SELECT pg_catalog.pg_switch_wal()", "INSERT INTO orders (item) VALUES ('y')",
						"SELECT pg_catalog.pg_switch_wal()")) {
					statement.execute(each);
				}
				beforeCheckpoint.run();
				statement.execute("CHECKPOINT");
				try (ResultSet result = statement.executeQuery(
						"SELECT wal_status FROM pg_catalog.pg_replication_slots WHERE slot_name = '" + slot + "'")) {
					status = result.next() ? result.getString(1) : null;
				}
			}
		}
		catch (SQLException ex) {
			throw new IllegalStateException(ex);
		}
		if (!"lost".equals(status)) {
			throw new IllegalStateException(
					"slot " + slot + " is " + status + " after " + ROUNDS + " rounds of the recipe, not lost");
		}
	}

	/**
	 * {@link #lose(PostgresServer, String, String)}, keeping a copy of the slot that a
	 * gap journal reads: before each checkpoint, a record of the running transactions is
	 * written (by making a temporary slot) and the copy is awaited past it, so that the
	 * checkpoint loses the slot and never its copy, as on a server whose WAL limit is
	 * more than a poll's worth of WAL.
	 * @param server the server
	 * @param database a database with a table {@code orders (id bigserial, item text)}
	 * @param slot the slot to lose
	 * @param copy the copy to keep
	 */
	public static void loseBeforeItsCopy(PostgresServer server, String database, String slot, String copy) {
		loseBeforeItsCopy(server, database, slot, copy, () -> {
		});
	}

	/**
	 * {@link #loseBeforeItsCopy(PostgresServer, String, String, String)}, waiting for
	 * something more before each checkpoint.
	 * @param server the server
	 * @param database a database with a table {@code orders (id bigserial, item text)}
	 * @param slot the slot to lose
	 * @param copy the copy to keep
	 * @param beforeCheckpoint what to wait for too, such as a standby's confirmation
	 */
	public static void loseBeforeItsCopy(PostgresServer server, String database, String slot, String copy,
			Runnable beforeCheckpoint) {
		lose(server, database, slot, () -> {
			beforeCheckpoint.run();
			awaitCopyAtHead(server, database, copy);
		});
	}

	/**
	 * Writes a record of the running transactions, at which slots' restart positions
	 * move, rather than waiting for the background writer's (at most every 15 s): making
	 * a temporary slot writes one.
	 * @param server the server
	 * @param database a database of it
	 */
	public static void logRunningTransactions(PostgresServer server, String database) {
		server.execute(database, RUNNING_TRANSACTIONS_RECORD);
	}

	/**
	 * Writes a record of the running transactions (by making a temporary slot) and waits
	 * until a gap journal's copy keeps no WAL from before it: a checkpoint then loses its
	 * slot and never the copy.
	 * @param server the server
	 * @param database the copy's database
	 * @param copy the copy
	 */
	public static void awaitCopyAtHead(PostgresServer server, String database, String copy) {
		awaitAtHead(server, database, List.of(copy), 1024, java.time.Duration.ofSeconds(30));
	}

	/**
	 * Writes a record of the running transactions (by making a temporary slot) and waits
	 * until each of the slots keeps at most {@code slack} bytes of WAL from before it.
	 * @param server the server
	 * @param database a database of it
	 * @param slots the slots, of any database of the server
	 * @param slack how far before the record a slot may restart
	 * @param within how long to wait
	 * @throws org.awaitility.core.ConditionTimeoutException when one keeps more
	 */
	public static void awaitAtHead(PostgresServer server, String database, java.util.Collection<String> slots,
			long slack, java.time.Duration within) {
		if (slots.isEmpty()) {
			return;
		}
		String head;
		try (Connection connection = server.connect(database); Statement statement = connection.createStatement()) {
			statement.execute(RUNNING_TRANSACTIONS_RECORD);
			try (ResultSet result = statement.executeQuery("SELECT pg_current_wal_insert_lsn()")) {
				result.next();
				head = result.getString(1);
			}
		}
		catch (SQLException ex) {
			throw new IllegalStateException(ex);
		}
		String mark = Lsn.format(Lsn.parse(head) - slack);
		String names = slots.stream().map((slot) -> "'" + slot + "'").collect(java.util.stream.Collectors.joining(","));
		org.awaitility.Awaitility.await()
			.atMost(within)
			.until(() -> "t".equals(server.queryForString(database, "SELECT bool_and(restart_lsn >= '" + mark
					+ "'::pg_lsn) FROM pg_replication_slots WHERE slot_name IN (" + names + ")")));
	}

	/**
	 * A new database whose commits are synchronous, so that decoding, which reads only
	 * WAL flushed, sees each change as soon as its statement returned (the test servers
	 * commit asynchronously).
	 * @param server the server
	 * @return the database's name
	 */
	public static String decodableDatabase(PostgresServer server) {
		String database = server.createDatabase();
		server.execute("postgres", "ALTER DATABASE " + database + " SET synchronous_commit = on");
		return database;
	}

	/**
	 * Drops every slot of a database.
	 * @param server the server
	 * @param database the database
	 */
	public static void dropSlots(PostgresServer server, String database) {
		server.execute(database,
				"SELECT pg_drop_replication_slot(slot_name) FROM pg_replication_slots WHERE database = current_database()");
	}

	/**
	 * A slot's gap journal: the slot copied and the copy decoded to its end.
	 * @param server the server
	 * @param database the slot's database
	 * @param slot the slot
	 * @param publications the publications to decode with
	 * @param maxKeys the journal's bound
	 * @return the journal
	 * @throws SQLException when the copy or decoding fails
	 */
	public static GapJournal journal(PostgresServer server, String database, String slot, List<String> publications,
			int maxKeys) throws SQLException {
		return journal(server, database, slot, publications, maxKeys, (table) -> false);
	}

	/**
	 * A journal of a slot's gap, read to its end from a copy of the slot, keeping the
	 * rows inserted into outbox tables.
	 * @param server the server
	 * @param database the slot's database
	 * @param slot the slot
	 * @param publications the publications to decode with
	 * @param maxKeys how many keys and events it keeps
	 * @param outbox whether a table is an outbox table
	 * @return the journal
	 * @throws SQLException when the copy cannot be made or read
	 */
	public static GapJournal journal(PostgresServer server, String database, String slot, List<String> publications,
			int maxKeys, java.util.function.Predicate<String> outbox) throws SQLException {
		try (Connection connection = server.connect(database)) {
			String copy = SlotCopies.copy(connection, slot);
			PrimaryKeys keys = new PrimaryKeys();
			keys.use(connection);
			GapJournal journal = new GapJournal(maxKeys, keys, outbox, 32L << 20);
			while (SlotCopies.decode(connection, copy, publications, null, 1000, journal) > 0) {
				// to the copy's end
			}
			return journal;
		}
	}

}
