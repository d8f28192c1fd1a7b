package io.slotkeeper.resnapshot;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import io.slotkeeper.gap.Gap;
import io.slotkeeper.testbed.PostgresServer;
import io.slotkeeper.testbed.PostgresTestBed;
import io.slotkeeper.testbed.SlotRecipes;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What a gap journal read on a real server, as signals for slot-keeper's Debezium
 * extension: a truncate for a table truncated in the gap, the deleted keys that do not
 * exist now, an outbox table's events in commit order (never its deletes), each signal
 * fitting the signal table's column; an outbox column the extension cannot read, or an
 * event too large for the column, sends none of the table's events and says why; without
 * the extension everything is listed and nothing signalled; the signals of a gap before
 * that its consumer never read (the slot lost again) go first, their re-inserted keys
 * left out.
 */
// Not in the per-version sets: its SQL reads pg_attribute and pg_type alone, the same on
// every supported version, and its journals come from GapJournalTests' decoding, which
// is.
class GapSignalsTests {

	private static final List<String> CAPTURED = List.of("public.orders", "public.outbox", "public.notes");

	private final PostgresServer server = PostgresTestBed.shared();

	private String database;

	@BeforeEach
	void tables() {
		this.database = SlotRecipes.decodableDatabase(this.server);
		this.server.execute(this.database, "CREATE TABLE orders (id int PRIMARY KEY, item text)",
				"INSERT INTO orders SELECT n, 'o' || n FROM generate_series(1, 10) AS n",
				"CREATE TABLE outbox (id uuid PRIMARY KEY DEFAULT gen_random_uuid(), aggregatetype text NOT NULL,"
						+ " payload jsonb, created_at timestamptz NOT NULL DEFAULT now())",
				"CREATE TABLE notes (id int PRIMARY KEY)", "INSERT INTO notes VALUES (1)",
				"CREATE PUBLICATION cdc FOR ALL TABLES",
				"SELECT pg_create_logical_replication_slot('consumer', 'pgoutput')");
	}

	@AfterEach
	void dropSlots() {
		SlotRecipes.dropSlots(this.server, this.database);
	}

	@Test
	void aTruncateTheDeletesThatStayDeletedAndTheOutboxEventsAreSignalledInThatOrder() throws SQLException {
		this.server.execute(this.database, "TRUNCATE notes", "DELETE FROM orders WHERE id IN (2, 3, 4)",
				"INSERT INTO outbox (aggregatetype, payload) SELECT 'order', jsonb_build_object('n', n)"
						+ " FROM generate_series(1, 5) AS n",
				"DELETE FROM outbox");
		Gap gap = gap();
		this.server.execute(this.database, "INSERT INTO orders VALUES (3, 'back')");

		try (Connection connection = this.server.connect(this.database)) {
			GapSignals.Planned planned = GapSignals.plan(connection, gap, CAPTURED, List.of("public.outbox"), null);

			assertThat(planned.signals()).extracting(Map.Entry::getKey)
				.containsExactly(GapSignals.DELETES, GapSignals.EVENTS, GapSignals.TRUNCATE);
			assertThat(planned.signals().get(0).getValue()).containsEntry("keys", List.of(List.of("2"), List.of("4")));
			Map<String, Object> events = planned.signals().get(1).getValue();
			assertThat(events).containsEntry("data-collection", "public.outbox")
				.containsEntry("columns", List.of("id", "aggregatetype", "payload", "created_at"));
			assertThat((List<?>) events.get("rows")).hasSize(5)
				.allSatisfy((row) -> assertThat((List<?>) row).hasSize(4));
			assertThat(((List<?>) ((List<?>) events.get("rows")).get(0)).get(2)).isEqualTo("{\"n\": 1}");
			assertThat(planned.signals().get(2).getValue()).isEqualTo(Map.of("data-collection", "public.notes"));
			assertThat(planned.signalled()).containsOnlyKeys("public.orders");
			assertThat(planned.described().get("public.orders")).startsWith("2 deletes signalled")
				.contains("1 deleted in the gap exist again");
			assertThat(planned.described().get("public.outbox")).startsWith("5 events signalled (1 ");
			assertThat(planned.described().get("public.notes")).startsWith("truncated in the gap");
			assertThat(planned.described().values()).allMatch((said) -> !said.contains("{\"n\""));
			assertThat(planned.notSent()).as("everything was sent").isEmpty();
		}
	}

	@Test
	void signalsOfAGapBeforeThatItsConsumerNeverReadGoFirstTheirKeysInsertedAgainLeftOut() throws SQLException {
		this.server.execute(this.database, "DELETE FROM orders WHERE id = 5");
		Gap gap = gap();
		// The gap before's deletes: 2 and 9 still deleted, 7 inserted again since.
		this.server.execute(this.database, "DELETE FROM orders WHERE id IN (2, 9)");
		List<Map.Entry<String, Map<String, Object>>> before = List.of(
				Map.entry(GapSignals.DELETES,
						Map.of("data-collection", "public.orders", "key-columns", List.of("id"), "keys",
								List.of(List.of("2"), List.of("7"), List.of("9")))),
				Map.entry(GapSignals.TRUNCATE, Map.of("data-collection", "public.notes")));

		try (Connection connection = this.server.connect(this.database)) {
			GapSignals.Planned planned = GapSignals.plan(connection, gap, CAPTURED, List.of("public.outbox"), null)
				.after(connection, before);

			assertThat(planned.signals()).extracting(Map.Entry::getKey)
				.containsExactly(GapSignals.DELETES, GapSignals.TRUNCATE, GapSignals.DELETES);
			assertThat(planned.signals().get(0).getValue()).containsEntry("keys", List.of(List.of("2"), List.of("9")));
			assertThat(planned.signals().get(2).getValue()).containsEntry("keys", List.of(List.of("5")));
			assertThat(planned.signalled().get("public.orders")).containsExactly(List.of("2"), List.of("9"),
					List.of("5"));
			assertThat(planned.keyColumns()).containsEntry("public.orders", List.of("id"));
			assertThat(planned.described().get("public.orders"))
				.contains("1 signal(s) of the gap before sent again first");
			assertThat(planned.described().get("public.notes")).contains("of the gap before sent again first");
		}
	}

	@Test
	void eventsThatDoNotFitOneSignalAreSplitAndOneThatFitsNoneSendsNoneOfItsTable() throws SQLException {
		this.server.execute(this.database,
				"INSERT INTO outbox (aggregatetype, payload) VALUES ('small', '{}'), ('small', '{}'),"
						+ " ('large', jsonb_build_object('text', repeat('x', 1750)))");
		Gap gap = gap();
		try (Connection connection = this.server.connect(this.database)) {
			GapSignals.Planned split = GapSignals.plan(connection, gap, CAPTURED, List.of("public.outbox"), 2048);
			assertThat(split.signals()).hasSizeGreaterThan(1)
				.allSatisfy((signal) -> assertThat(signal.getKey()).isEqualTo(GapSignals.EVENTS));

			GapSignals.Planned none = GapSignals.plan(connection, gap, CAPTURED, List.of("public.outbox"), 500);
			assertThat(none.signals()).isEmpty();
			assertThat(none.described().get("public.outbox"))
				.isEqualTo("3 events not signalled: an event does not fit the signal table's data column"
						+ " (500 characters; widen it to text)");
		}
	}

	@Test
	void anOutboxColumnTheExtensionCannotReadSendsNoEventAndSaysWhich() throws SQLException {
		this.server.execute(this.database, "ALTER TABLE outbox ADD COLUMN span int4range",
				"INSERT INTO outbox (aggregatetype, span) VALUES ('order', '[1,5)')");
		Gap gap = gap();
		try (Connection connection = this.server.connect(this.database)) {
			GapSignals.Planned planned = GapSignals.plan(connection, gap, CAPTURED, List.of("public.outbox"), null);
			assertThat(planned.signals()).isEmpty();
			assertThat(planned.described().get("public.outbox")).isEqualTo(
					"1 events not signalled: column span is of type int4range, which the extension does not read");
			assertThat(planned.notSent()).isEqualTo(planned.described());
		}
	}

	@Test
	void withoutTheExtensionDeletesAndEventsAreListedAndNothingIsSignalled() throws SQLException {
		this.server.execute(this.database, "DELETE FROM orders WHERE id = 5",
				"INSERT INTO outbox (aggregatetype) VALUES ('order')");
		GapSignals.Planned planned = GapSignals.listed(gap(), CAPTURED, List.of("public.outbox"), "not installed");
		assertThat(planned.signals()).isEmpty();
		assertThat(planned.notSent()).isEqualTo(planned.described());
		assertThat(planned.described()).containsExactlyInAnyOrderEntriesOf(
				Map.of("public.orders", "1 deletes listed at …/gap, not delivered: not installed", "public.outbox",
						"1 events listed at …/gap, not delivered: not installed"));
	}

	private Gap gap() throws SQLException {
		return new Gap("0/0", "0/0", SlotRecipes.journal(this.server, this.database, "consumer", List.of("cdc"),
				100_000, "public.outbox"::equals), null);
	}

}
