package io.slotkeeper.gap;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import io.slotkeeper.gap.GapJournal.Change;
import io.slotkeeper.sessions.Lsn;
import io.slotkeeper.testbed.PostgresServer;
import io.slotkeeper.testbed.PostgresTestBed;
import io.slotkeeper.testbed.SlotRecipes;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * The gap journal read from a copy of a real pgoutput slot, on every PostgreSQL the
 * compatibility runs bring: each key's net change over the gap, exactly, whatever its
 * type; what cannot be told key by key says so; the consumer's own slot never moves.
 */
@Tag("pg-compat")
@Tag("pg-each")
class GapJournalTests {

	private final PostgresServer server = PostgresTestBed.shared();

	private String database;

	@BeforeEach
	void slotOnAnOrdersTable() {
		this.database = SlotRecipes.decodableDatabase(this.server);
		this.server.execute(this.database, "CREATE TABLE orders (id int PRIMARY KEY, item text)",
				"INSERT INTO orders SELECT n, 'old ' || n FROM generate_series(1, 10) AS n",
				"CREATE PUBLICATION cdc FOR ALL TABLES",
				"SELECT pg_create_logical_replication_slot('consumer', 'pgoutput')");
	}

	@AfterEach
	void dropSlots() {
		SlotRecipes.dropSlots(this.server, this.database);
	}

	@Test
	void eachKeysNetChangeOverTheGapIsToldAndTheConsumersSlotDoesNotMove() throws SQLException {
		String before = confirmed("consumer");
		this.server.execute(this.database, "INSERT INTO orders SELECT n, 'new' FROM generate_series(11, 15) AS n",
				"UPDATE orders SET item = 'changed' WHERE id IN (3, 4, 11)", "DELETE FROM orders WHERE id IN (5, 6)",
				"INSERT INTO orders VALUES (16, 'short-lived')", "DELETE FROM orders WHERE id IN (16, 3)",
				"UPDATE orders SET id = 70 WHERE id = 7");

		GapJournal journal = journal("consumer", "cdc");

		assertThat(keys(journal, "public.orders", Change.INSERTED)).containsExactlyInAnyOrder("11", "12", "13", "14",
				"15", "70");
		assertThat(keys(journal, "public.orders", Change.UPDATED)).containsExactly("4");
		// 16, inserted and deleted in the gap: the consumer may have read the insert.
		assertThat(keys(journal, "public.orders", Change.DELETED)).containsExactlyInAnyOrder("3", "5", "6", "7", "16");
		GapJournal.TableSummary orders = journal.tables().get("public.orders");
		assertThat(orders.exact()).isTrue();
		assertThat(orders.keyColumns()).containsExactly("id");
		assertThat(List.of(orders.inserted(), orders.updated(), orders.deleted())).containsExactly(6, 1, 5);
		assertThat(journal.transactions()).isEqualTo(6);
		assertThat(confirmed("consumer")).isEqualTo(before);
		assertThat(Lsn.parse(confirmed(SlotCopies.copyOf("consumer")))).isGreaterThan(Lsn.parse(before));
	}

	@Test
	void theJournalStartsWhereTheConsumerConfirmedNotWhereItsSlotRestarts() throws SQLException {
		this.server.execute(this.database, "DELETE FROM orders WHERE id = 1");
		this.server.execute(this.database, "SELECT pg_replication_slot_advance('consumer', pg_current_wal_lsn())");
		this.server.execute(this.database, "DELETE FROM orders WHERE id = 2");

		GapJournal journal = journal("consumer", "cdc");

		assertThat(keys(journal, "public.orders", Change.DELETED)).containsExactly("2");
	}

	@Test
	void compositeAndTypedKeysKeepPostgresqlsTextForms() throws SQLException {
		this.server.execute(this.database,
				"CREATE TABLE accounts (tenant text, id uuid, at timestamptz, amount numeric, PRIMARY KEY (tenant, id))",
				"CREATE TABLE prices (amount numeric PRIMARY KEY, at timestamptz)");
		String hostile = "o'brien\\\\; DROP TABLE orders; --\"é";
		this.server.execute(this.database,
				"INSERT INTO accounts VALUES ('" + hostile.replace("'", "''")
						+ "', 'a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11', '2026-12-06 10:00+01', 1.50)",
				"INSERT INTO prices VALUES (12345678901234567890.0100, now())");

		GapJournal journal = journal("consumer", "cdc");

		assertThat(journal.keys("public.accounts", Change.INSERTED))
			.containsExactly(List.of(this.server.queryForString(this.database, "SELECT tenant FROM accounts"),
					"a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11"));
		assertThat(journal.keys("public.accounts", Change.INSERTED).get(0).get(0)).contains("o'brien")
			.contains("; DROP TABLE orders; --\"é");
		assertThat(journal.tables().get("public.accounts").keyColumns()).containsExactly("tenant", "id");
		assertThat(keys(journal, "public.prices", Change.INSERTED)).containsExactly("12345678901234567890.0100");
	}

	@Test
	void aTruncateIsKeptWithItsCommitAndWhatFollowsItIsToldAgain() throws SQLException {
		this.server.execute(this.database, "DELETE FROM orders WHERE id = 1", "TRUNCATE orders",
				"INSERT INTO orders VALUES (1, 'again'), (2, 'again')");

		GapJournal journal = journal("consumer", "cdc");

		GapJournal.TableSummary orders = journal.tables().get("public.orders");
		assertThat(orders.truncates()).hasSize(1);
		assertThat(orders.exact()).isFalse();
		assertThat(keys(journal, "public.orders", Change.INSERTED)).containsExactlyInAnyOrder("1", "2");
		assertThat(orders.deleted()).isZero();
	}

	@Test
	void aFullReplicaIdentityIsKeyedByThePrimaryKeyAndNoIdentitySaysItIsNotExact() throws SQLException {
		this.server.execute(this.database, "ALTER TABLE orders REPLICA IDENTITY FULL",
				"CREATE TABLE notes (id int PRIMARY KEY, body text)", "ALTER TABLE notes REPLICA IDENTITY NOTHING",
				"CREATE TABLE loose (body text)", "ALTER TABLE loose REPLICA IDENTITY FULL");
		this.server.execute(this.database, "UPDATE orders SET item = 'changed' WHERE id = 2",
				"DELETE FROM orders WHERE id = 8", "INSERT INTO notes VALUES (1, 'a')",
				"INSERT INTO loose VALUES ('x')");

		GapJournal journal = journal("consumer", "cdc");

		assertThat(keys(journal, "public.orders", Change.UPDATED)).containsExactly("2");
		assertThat(keys(journal, "public.orders", Change.DELETED)).containsExactly("8");
		assertThat(journal.tables().get("public.orders").exact()).isTrue();
		assertThat(journal.tables().get("public.notes").whyNotExact()).contains("REPLICA IDENTITY NOTHING");
		assertThat(journal.tables().get("public.loose").whyNotExact()).contains("no key to tell its rows by");
	}

	@Test
	void aTableOutsideThePublicationIsNotJournaled() throws SQLException {
		this.server.execute(this.database, "CREATE TABLE audit_log (id int PRIMARY KEY)",
				"CREATE PUBLICATION orders_only FOR TABLE orders");
		this.server.execute(this.database, "INSERT INTO audit_log VALUES (1)", "DELETE FROM orders WHERE id = 9");

		GapJournal journal = journal("consumer", "orders_only");

		assertThat(journal.tables()).containsOnlyKeys("public.orders");
		assertThat(keys(journal, "public.orders", Change.DELETED)).containsExactly("9");
	}

	@Test
	void aBigTransactionIsReadWholeAcrossPagesAndTheKeyBoundSendsATableToAWholeRead() throws SQLException {
		this.server.execute(this.database, "INSERT INTO orders SELECT n, 'bulk' FROM generate_series(1000, 20999) AS n",
				"DELETE FROM orders WHERE id = 10");

		GapJournal journal = journal("consumer", "cdc");
		assertThat(journal.tables().get("public.orders").inserted()).isEqualTo(20_000);
		assertThat(journal.transactions()).isEqualTo(2);

		this.server.execute(this.database, "SELECT pg_drop_replication_slot('" + SlotCopies.copyOf("consumer") + "')");
		GapJournal bounded = journal("consumer", "cdc", 5_000);
		assertThat(bounded.tables().get("public.orders").whyNotExact()).contains("more than 5000 keys");
		assertThat(bounded.tables().get("public.orders").inserted()).isZero();
	}

	@Test
	void decodingStopsBeforeTheFirstTransactionCommittedAtTheBoundAndTheRestStaysInTheCopy() throws SQLException {
		this.server.execute(this.database, "DELETE FROM orders WHERE id = 1");
		String bound = this.server.queryForString(this.database, "SELECT pg_current_wal_insert_lsn()");
		this.server.execute(this.database, "DELETE FROM orders WHERE id = 2");
		try (Connection connection = this.server.connect(this.database)) {
			String copy = SlotCopies.copy(connection, "consumer");
			GapJournal journal = new GapJournal(100, (relation) -> List.of());
			assertThat(SlotCopies.decode(connection, copy, List.of("cdc"), Lsn.parse(bound), 100, journal))
				.isPositive();
			assertThat(SlotCopies.decode(connection, copy, List.of("cdc"), Lsn.parse(bound), 100, journal)).isZero();
			assertThat(keys(journal, "public.orders", Change.DELETED)).containsExactly("1");
			GapJournal rest = new GapJournal(100, (relation) -> List.of());
			SlotCopies.decode(connection, copy, List.of("cdc"), null, 100, rest);
			assertThat(keys(rest, "public.orders", Change.DELETED)).containsExactly("2");
			assertThat(SlotCopies.drop(connection, copy)).isTrue();
			assertThatExceptionOfType(IllegalArgumentException.class)
				.isThrownBy(() -> SlotCopies.drop(connection, "consumer"));
		}
	}

	@Test
	void aPageStoredButNotConsumedIsDecodedAgainByTheNextOwnerAndTakenOnce() throws SQLException {
		this.server.execute(this.database, "CREATE TABLE notes (id int PRIMARY KEY)",
				"INSERT INTO orders VALUES (11, 'new')", "UPDATE orders SET item = 'changed' WHERE id = 1",
				"TRUNCATE notes");
		try (Connection connection = this.server.connect(this.database);
				Connection store = this.server.connect("postgres")) {
			GapJournalStore.prepare(store);
			String copy = SlotCopies.copy(connection, "consumer");
			GapJournal first = new GapJournal(100, (relation) -> List.of());
			SlotCopies.Page page = SlotCopies.peek(connection, copy, List.of("cdc"), null, 100, first);
			GapJournalStore.save(store,
					new GapJournalStore.Header(this.database, this.database, copy, null, first.position(),
							first.transactions(), java.time.Instant.now(), List.of("cdc"), null),
					first.drainChanges(), first.drainEvents());
			// The owner stops here: stored, not consumed.
			assertThat(confirmed(copy)).isEqualTo(confirmed("consumer"));
			assertThat(page.end()).isEqualTo(first.position());
			this.server.execute(this.database, "DELETE FROM orders WHERE id = 2");

			GapJournalStore.Stored stored = GapJournalStore.load(store, this.database).orElseThrow();
			GapJournal adopted = new GapJournal(100, (relation) -> List.of());
			adopted.restore(stored.header().position(), stored.header().transactions(), stored.tables());
			SlotCopies.decode(connection, copy, List.of("cdc"), null, 100, adopted);

			assertThat(adopted.transactions()).isEqualTo(first.transactions() + 1);
			assertThat(adopted.tables().get("public.notes").truncates()).hasSize(1);
			assertThat(keys(adopted, "public.orders", Change.INSERTED)).containsExactly("11");
			assertThat(keys(adopted, "public.orders", Change.UPDATED)).containsExactly("1");
			assertThat(keys(adopted, "public.orders", Change.DELETED)).containsExactly("2");
			assertThat(adopted.tables().get("public.orders").keyColumns()).containsExactly("id");
			GapJournalStore.delete(store, this.database);
			assertThat(GapJournalStore.load(store, this.database)).isEmpty();
		}
	}

	@Test
	void anOutboxTablesRowsInsertedInTheGapAreKeptWholeInCommitOrderThoughDeletedRightAfter() throws SQLException {
		this.server.execute(this.database,
				"CREATE TABLE outbox (id uuid PRIMARY KEY, aggregatetype text NOT NULL, aggregateid text NOT NULL,"
						+ " type text NOT NULL, payload jsonb, created timestamptz NOT NULL DEFAULT now())");
		String confirmed = this.server.queryForString(this.database, "SELECT pg_current_wal_insert_lsn()");
		for (int event = 1; event <= 3; event++) {
			this.server.execute(this.database,
					"BEGIN; INSERT INTO outbox VALUES ('00000000-0000-0000-0000-00000000000" + event + "', 'order', '"
							+ event + "', 'created', " + ((event == 2) ? "NULL" : "'{\"n\": " + event + "}'")
							+ ", '2026-12-07 10:00:0" + event + "+00'); DELETE FROM outbox; COMMIT");
		}
		this.server.execute(this.database, "INSERT INTO orders VALUES (11, 'not an event')");
		try (Connection connection = this.server.connect(this.database);
				Connection store = this.server.connect("postgres")) {
			String copy = SlotCopies.copy(connection, "consumer");
			GapJournal journal = new GapJournal(100, (relation) -> List.of(), "public.outbox"::equals, 1_000_000);
			SlotCopies.decode(connection, copy, List.of("cdc"), null, 100, journal);

			List<GapJournal.Event> events = journal.events("public.outbox");
			assertThat(events).extracting((event) -> event.values().get(2)).containsExactly("1", "2", "3");
			assertThat(events.get(0).columns()).containsExactly("id", "aggregatetype", "aggregateid", "type", "payload",
					"created");
			assertThat(events.get(0).values()).containsExactly("00000000-0000-0000-0000-000000000001", "order", "1",
					"created", "{\"n\": 1}", "2026-12-07 10:00:01+00");
			assertThat(events.get(1).values().get(4)).isNull();
			assertThat(journal.events("public.orders")).isEmpty();
			GapJournal.TableSummary outbox = journal.tables().get("public.outbox");
			assertThat(List.of(outbox.events(), outbox.deleted())).containsExactly(3, 3);
			assertThat(outbox.eventsIncomplete()).isNull();

			GapJournalStore.prepare(store);
			GapJournalStore.save(store,
					new GapJournalStore.Header(this.database, this.database, copy, confirmed, journal.position(),
							journal.transactions(), java.time.Instant.now(), List.of("cdc"), null),
					journal.drainChanges(), journal.drainEvents());
			GapJournalStore.Stored stored = GapJournalStore.load(store, this.database).orElseThrow();
			GapJournal adopted = new GapJournal(100, (relation) -> List.of(), "public.outbox"::equals, 1_000_000);
			adopted.restore(stored.header().position(), stored.header().transactions(), stored.tables());
			adopted.restoreEvents(stored.events());
			assertThat(adopted.events("public.outbox")).isEqualTo(events);

			adopted.since(events.get(1).lsn());
			assertThat(adopted.events("public.outbox")).extracting((event) -> event.values().get(2))
				.containsExactly("2", "3");
			GapJournalStore.delete(store, this.database);
		}
	}

	@Test
	void aStoreMadeBeforeOutboxEventsWereKeptIsCompletedOnItsFirstUse() throws SQLException {
		String old = this.server.createDatabase();
		try (Connection store = this.server.connect(old)) {
			GapJournalStore.prepare(store);
			this.server.execute(old, "ALTER TABLE slotkeeper.gap_tables DROP COLUMN events_incomplete",
					"DROP TABLE slotkeeper.gap_events",
					"INSERT INTO slotkeeper.gap_journals VALUES ('consumer', 'shop', 'copy', NULL, 1, 1, now(),"
							+ " '{cdc}', NULL, now())",
					"INSERT INTO slotkeeper.gap_tables VALUES ('consumer', 'public.orders', '{id}', NULL, '{}', false)");

			GapJournalStore.Stored stored = GapJournalStore.load(store, "consumer").orElseThrow();

			assertThat(stored.tables()).extracting(GapJournal.StoredTable::name).containsExactly("public.orders");
			assertThat(stored.tables().get(0).eventsIncomplete()).isNull();
			assertThat(stored.events()).isEmpty();
			assertThat(this.server.queryForString(old, "SELECT count(*) FROM slotkeeper.gap_events")).isEqualTo("0");
		}
	}

	@Test
	void anOutboxTablesEventsPastTheBoundAreSaidToBeIncomplete() throws SQLException {
		this.server.execute(this.database, "CREATE TABLE outbox (id int PRIMARY KEY, payload text)",
				"INSERT INTO outbox SELECT n, 'event ' || n FROM generate_series(1, 8) AS n");
		try (Connection connection = this.server.connect(this.database)) {
			String copy = SlotCopies.copy(connection, "consumer");
			GapJournal journal = new GapJournal(10, (relation) -> List.of(), "public.outbox"::equals, 1_000_000);
			SlotCopies.decode(connection, copy, List.of("cdc"), null, 100, journal);

			GapJournal.TableSummary outbox = journal.tables().get("public.outbox");
			assertThat(outbox.events()).isLessThan(8).isEqualTo(journal.events("public.outbox").size());
			assertThat(outbox.eventsIncomplete()).startsWith("more than 10 keys and events in the gap");
		}
	}

	@Test
	void anOutboxTablesEventsPastTheirBytesAreSaidToBeIncompleteAndTheRestKept() throws SQLException {
		this.server.execute(this.database, "CREATE TABLE outbox (id int PRIMARY KEY, payload text)",
				"INSERT INTO outbox SELECT n, repeat('x', 1000) FROM generate_series(1, 8) AS n");
		try (Connection connection = this.server.connect(this.database)) {
			String copy = SlotCopies.copy(connection, "consumer");
			GapJournal journal = new GapJournal(1000, (relation) -> List.of(), "public.outbox"::equals, 3_500);
			SlotCopies.decode(connection, copy, List.of("cdc"), null, 100, journal);

			assertThat(journal.events("public.outbox")).extracting((event) -> event.values().get(0))
				.containsExactly("1", "2", "3");
			assertThat(journal.tables().get("public.outbox").eventsIncomplete())
				.startsWith("more than 3500 bytes of outbox events in the gap (gap-journal.max-event-bytes)");
		}
	}

	@Test
	void aLostSlotCannotBeCopiedSoTheJournalMustStartWhileItIsWhole() throws SQLException {
		String lossy = "gap_lost";
		try (PostgresServer server = SlotRecipes.lossyServer(lossy)) {
			server.execute(lossy, "SELECT pg_create_logical_replication_slot('consumer', 'pgoutput')");
			SlotRecipes.lose(server, lossy, "consumer");
			try (Connection connection = server.connect(lossy)) {
				assertThatExceptionOfType(SQLException.class).isThrownBy(() -> SlotCopies.copy(connection, "consumer"))
					.withMessageMatching("(?s).*(doesn't reserve WAL|invalidated).*");
			}
		}
	}

	@Test
	void aGapMovedToWhereItsConsumerConfirmedTellsEachKeyFromItsLaterChangesAlone() throws SQLException {
		this.server.execute(this.database, "INSERT INTO orders VALUES (11, 'new')",
				"UPDATE orders SET item = 'changed' WHERE id = 3", "DELETE FROM orders WHERE id = 5",
				"UPDATE orders SET item = 'once' WHERE id = 8", "UPDATE orders SET item = 'twice' WHERE id = 8");
		long confirmed = Lsn.parse(this.server.queryForString(this.database, "SELECT pg_current_wal_insert_lsn()"));
		this.server.execute(this.database, "UPDATE orders SET item = 'again' WHERE id = 11",
				"DELETE FROM orders WHERE id = 3", "INSERT INTO orders VALUES (12, 'new')",
				"UPDATE orders SET item = 'thrice' WHERE id = 8");
		GapJournal journal = journal("consumer", "cdc");
		assertThat(keys(journal, "public.orders", Change.INSERTED)).containsExactlyInAnyOrder("11", "12");
		assertThat(keys(journal, "public.orders", Change.DELETED)).containsExactlyInAnyOrder("3", "5");

		journal.since(confirmed);

		assertThat(keys(journal, "public.orders", Change.INSERTED)).containsExactly("12");
		assertThat(keys(journal, "public.orders", Change.UPDATED)).containsExactlyInAnyOrder("11", "8");
		assertThat(keys(journal, "public.orders", Change.DELETED)).containsExactly("3");
		GapJournal.TableSummary orders = journal.tables().get("public.orders");
		assertThat(List.of(orders.inserted(), orders.updated(), orders.deleted())).containsExactly(1, 2, 1);
	}

	@Test
	void aCopysNameIsItsOwnForEveryLongSlotName() {
		String longName = "a".repeat(63);
		String other = "a".repeat(62) + "b";
		assertThat(SlotCopies.copyOf(longName)).hasSizeLessThanOrEqualTo(63)
			.startsWith(SlotCopies.PREFIX)
			.matches("[a-z0-9_]+")
			.isNotEqualTo(SlotCopies.copyOf(other));
	}

	private GapJournal journal(String slot, String publications) throws SQLException {
		return journal(slot, publications, 1_000_000);
	}

	private GapJournal journal(String slot, String publications, int maxKeys) throws SQLException {
		try (Connection connection = this.server.connect(this.database)) {
			assertThat(SlotCopies.otherEncoding(connection)).isNull();
		}
		GapJournal journal = SlotRecipes.journal(this.server, this.database, slot, List.of(publications.split(",")),
				maxKeys);
		assertThat(journal.transactions()).isPositive();
		return journal;
	}

	private String confirmed(String slot) {
		return this.server.queryForString(this.database,
				"SELECT confirmed_flush_lsn FROM pg_replication_slots WHERE slot_name = '" + slot + "'");
	}

	private static List<String> keys(GapJournal journal, String table, Change change) {
		List<String> single = new ArrayList<>();
		journal.keys(table, change).forEach((key) -> single.add(String.join("|", key)));
		return single;
	}

}
