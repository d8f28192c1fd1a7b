package io.slotkeeper.gap;

import java.sql.Connection;
import java.sql.SQLException;
import java.time.Instant;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import io.slotkeeper.sessions.Lsn;
import io.slotkeeper.testbed.PostgresServer;
import io.slotkeeper.testbed.PostgresTestBed;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What a gap journal costs, printed: how fast a copy decodes, what the journal holds in
 * the heap per 100,000 changes, and how much WAL the copy keeps once read, against the
 * consumer's slot that keeps it all. Not part of the test run:
 * {@code ./mvnw -Pbench test -Dtest=GapJournalBench}.
 */
@Tag("bench")
class GapJournalBench {

	@Test
	void decodingRateHeapAndRetainedWal() throws SQLException {
		try (PostgresServer server = PostgresTestBed.dedicated(Map.of("max_slot_wal_keep_size", "-1"))) {
			for (int changes : List.of(100_000, 400_000)) {
				measure(server, changes);
			}
		}
	}

	// In the gap: 60 % new rows inserted in transactions of 1,000, 30 % of the rows from
	// before it updated, 10 % deleted, in transactions of 10,000.
	private static void measure(PostgresServer server, int changes) throws SQLException {
		String database = server.createDatabase();
		int old = changes * 4 / 10;
		int inserts = changes * 6 / 10;
		int updates = changes * 3 / 10;
		server.execute("postgres", "ALTER DATABASE " + database + " SET synchronous_commit = on");
		server.execute(database, "CREATE TABLE orders (id int PRIMARY KEY, item text, total numeric)",
				"INSERT INTO orders SELECT n, 'item ' || n, n * 1.5 FROM generate_series(1, " + old + ") AS n",
				"CREATE PUBLICATION cdc FOR ALL TABLES",
				"SELECT pg_create_logical_replication_slot('consumer', 'pgoutput')");
		for (int from = old + 1; from <= old + inserts; from += 1000) {
			server.execute(database, "INSERT INTO orders SELECT n, 'item ' || n, n * 1.5 FROM generate_series(" + from
					+ ", " + (from + 999) + ") AS n");
		}
		for (int from = 1; from <= old; from += 10_000) {
			server.execute(database, ((from <= updates) ? "UPDATE orders SET total = total + 1" : "DELETE FROM orders")
					+ " WHERE id BETWEEN " + from + " AND " + (from + 9_999));
		}
		long wal = Lsn.distance(query(server, database, "restart_lsn", "consumer"),
				server.queryForString(database, "SELECT pg_current_wal_lsn()"));
		System.gc();
		long heapBefore = usedHeap();
		GapJournal journal;
		long started = System.nanoTime();
		long storing = 0;
		int messages = 0;
		// As an owner feeds a journal: each page decoded, stored, then consumed from the
		// copy.
		try (Connection connection = server.connect(database); Connection store = server.connect("postgres")) {
			GapJournalStore.prepare(store);
			String copy = SlotCopies.copy(connection, "consumer");
			PrimaryKeys keys = new PrimaryKeys();
			keys.use(connection);
			journal = new GapJournal(10_000_000, keys);
			SlotCopies.Page page;
			do {
				page = SlotCopies.peek(connection, copy, List.of("cdc"), null, 10_000, journal);
				long before = System.nanoTime();
				GapJournalStore.save(store,
						new GapJournalStore.Header(database, database, copy, null, journal.position(),
								journal.transactions(), Instant.now(), List.of("cdc"), null),
						journal.drainChanges(), journal.drainEvents());
				storing += System.nanoTime() - before;
				SlotCopies.advance(connection, copy, page.end());
				messages += page.messages();
			}
			while (page.messages() >= 10_000);
		}
		long millis = (System.nanoTime() - started) / 1_000_000;
		String stored = server.queryForString("postgres",
				"SELECT pg_size_pretty(pg_total_relation_size('slotkeeper.gap_keys')"
						+ " + pg_total_relation_size('slotkeeper.gap_tables')"
						+ " + pg_total_relation_size('slotkeeper.gap_journals')) || ', '"
						+ " || (SELECT count(*) FROM slotkeeper.gap_keys WHERE slot = '" + database + "') || ' rows'");
		long loading = System.nanoTime();
		try (Connection store = server.connect("postgres")) {
			assertThat(GapJournalStore.load(store, database)).isPresent();
		}
		long loadMillis = (System.nanoTime() - loading) / 1_000_000;
		String copyKeepsAtOnce = retained(server, database, SlotCopies.copyOf("consumer"));
		// A copy's restart position moves only past a record of the running transactions
		// (a checkpoint's, or the background writer's every 15 s on a busy server).
		server.execute(database, "CHECKPOINT", "INSERT INTO orders VALUES (0, 'after', 0)");
		try (Connection connection = server.connect(database)) {
			SlotCopies.decode(connection, SlotCopies.copyOf("consumer"), List.of("cdc"), null, 10_000, journal);
		}
		System.gc();
		long heap = usedHeap() - heapBefore;
		GapJournal.TableSummary orders = journal.tables().get("public.orders");
		String copyKeeps = retained(server, database, SlotCopies.copyOf("consumer"));
		String consumerKeeps = retained(server, database, "consumer");
		server.execute(database, "SELECT pg_drop_replication_slot(slot_name) FROM pg_replication_slots");
		System.out.printf(
				"gap journal, %,d changes (%,d inserted, %,d updated, %,d deleted) in %,d transactions, %s of WAL: "
						+ "copied and decoded in %,d ms (%,d messages, %,.0f changes/s); journal %,d keys "
						+ "(%d inserted, %d updated, %d deleted), about %,d KiB of heap (%,d bytes per key); the copy "
						+ "keeps %s of WAL once read, %s after the next checkpoint, the consumer's slot %s; stored in"
						+ " %,d ms of the %,d (%s), loaded again in %,d ms%n",
				changes, inserts, updates, changes / 10, journal.transactions(), pretty(wal), millis, messages,
				changes * 1000.0 / Math.max(millis, 1), orders.inserted() + orders.updated() + orders.deleted(),
				orders.inserted(), orders.updated(), orders.deleted(), heap >> 10,
				heap / Math.max(1, orders.inserted() + orders.updated() + orders.deleted()), copyKeepsAtOnce, copyKeeps,
				consumerKeeps, storing / 1_000_000, millis, stored, loadMillis);
		assertThat(List.of(orders.inserted(), orders.updated(), orders.deleted())).containsExactly(inserts + 1, updates,
				changes / 10);
	}

	private static String retained(PostgresServer server, String database, String slot) {
		return server.queryForString(database, "SELECT pg_size_pretty(pg_current_wal_lsn() - restart_lsn)"
				+ " FROM pg_replication_slots WHERE slot_name = '" + slot + "'");
	}

	private static String query(PostgresServer server, String database, String column, String slot) {
		return server.queryForString(database,
				"SELECT " + column + " FROM pg_replication_slots WHERE slot_name = '" + slot + "'");
	}

	private static String pretty(long bytes) {
		return String.format("%.1f MiB", bytes / 1048576.0);
	}

	private static long usedHeap() {
		Runtime runtime = Runtime.getRuntime();
		return runtime.totalMemory() - runtime.freeMemory();
	}

}
