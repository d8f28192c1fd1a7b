package io.slotkeeper.resnapshot;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import io.slotkeeper.gap.Gap;
import io.slotkeeper.gap.SlotCopies;
import io.slotkeeper.testbed.PostgresServer;
import io.slotkeeper.testbed.PostgresTestBed;
import io.slotkeeper.testbed.SlotRecipes;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The re-read of exactly what a gap journal read, on real servers: the filters select
 * exactly the keys inserted or updated, however hostile their values; whole tables where
 * the journal cannot tell keys, none where nothing or only deletes changed; keys that do
 * not fit the signal row read whole, saying so; the answer counts keys, never lists one.
 */
@Tag("pg-compat")
class GapReadsTests {

	private static final String HOSTILE = "o'brien\\\\'); DROP TABLE customers; --";

	private final PostgresServer server = PostgresTestBed.shared();

	private String database;

	@BeforeEach
	void tables() {
		this.database = SlotRecipes.decodableDatabase(this.server);
		this.server.execute(this.database,
				"CREATE TABLE customers (tenant text, id int, name text, PRIMARY KEY (tenant, id))",
				"INSERT INTO customers SELECT 't' || (n % 3), n, 'c' || n FROM generate_series(1, 1000) AS n",
				"CREATE TABLE invoices (id int PRIMARY KEY)", "INSERT INTO invoices SELECT generate_series(1, 10)",
				"CREATE TABLE products (id int PRIMARY KEY)", "CREATE TABLE notes (id int PRIMARY KEY)",
				"INSERT INTO notes VALUES (1)", "CREATE PUBLICATION cdc FOR ALL TABLES",
				"SELECT pg_create_logical_replication_slot('consumer', 'pgoutput')");
	}

	@AfterEach
	void dropSlots() {
		SlotRecipes.dropSlots(this.server, this.database);
	}

	@Test
	void exactlyTheKeysInsertedOrUpdatedAreReadAndNoKeyIsInTheAnswer() throws SQLException {
		this.server.execute(this.database,
				"INSERT INTO customers VALUES ('" + HOSTILE.replace("'", "''") + "', 1, 'hostile')",
				"UPDATE customers SET name = 'changed' WHERE id IN (5, 6)", "DELETE FROM customers WHERE id = 7",
				"TRUNCATE invoices", "DELETE FROM notes");
		Gap gap = gap();

		try (Connection connection = this.server.connect(this.database)) {
			GapReads.Chosen chosen = GapReads.choose(connection, gap,
					List.of("public.customers", "public.invoices", "public.products", "public.notes"), null);

			assertThat(chosen.read()).containsExactly("public.customers", "public.invoices");
			String filter = chosen.filters().get("public.customers");
			assertThat(this.server.queryForString(this.database,
					"SELECT string_agg(id::text, ',' ORDER BY id) FROM customers WHERE " + filter))
				.isEqualTo("1,5,6");
			assertThat(this.server.queryForString(this.database, "SELECT count(*) FROM customers WHERE " + filter))
				.isEqualTo("3");
			assertThat(chosen.answer().readWhole()).containsOnlyKeys("public.invoices");
			assertThat(chosen.answer().readWhole().get("public.invoices")).startsWith("truncated in the gap at ");
			assertThat(chosen.answer().skipped()).extracting(SkippedTable::table)
				.containsExactly("public.products", "public.notes");
			assertThat(chosen.answer().skipped().get(1).why()).startsWith("only 1 deletes in the gap");
			assertThat(chosen.answer().conditions())
				.containsExactly(java.util.Map.entry("public.customers", "3 keys inserted or updated in the gap"));
			assertThat(chosen.answer().toString()).doesNotContain("brien").doesNotContain("'5'");
		}
	}

	@Test
	void runsOfAnIntegerKeyAreReadAsRangesAndTheRestAsAList() throws SQLException {
		this.server.execute(this.database, "CREATE TABLE orders (id bigint PRIMARY KEY, item text)",
				"INSERT INTO orders SELECT n, 'old' FROM generate_series(1, 100) AS n");
		this.server.execute(this.database, "SELECT pg_drop_replication_slot('consumer')",
				"SELECT pg_create_logical_replication_slot('consumer', 'pgoutput')");
		this.server.execute(this.database,
				"UPDATE orders SET item = 'changed' WHERE id IN (3, 30, 31) OR id BETWEEN 10 AND 20",
				"INSERT INTO orders SELECT n, 'new' FROM generate_series(1000, 1999) AS n");
		Gap gap = gap();

		try (Connection connection = this.server.connect(this.database)) {
			GapReads.Chosen chosen = GapReads.choose(connection, gap, List.of("public.orders"), 2048);

			String filter = chosen.filters().get("public.orders");
			assertThat(filter).isEqualTo("(id BETWEEN 10 AND 20 OR id BETWEEN 1000 AND 1999 OR id IN (3, 30, 31))");
			assertThat(this.server.queryForString(this.database, "SELECT count(*) FROM orders WHERE " + filter))
				.isEqualTo("1014");
			assertThat(chosen.answer().conditions())
				.containsExactly(java.util.Map.entry("public.orders", "1014 keys inserted or updated in the gap"));
		}
	}

	@Test
	void keysThatDoNotFitOneSignalRowAreReadInSlicesEachASignalThatFits() throws SQLException {
		this.server.execute(this.database, "UPDATE customers SET name = 'changed' WHERE id <= 300",
				"UPDATE notes SET id = 1 WHERE id = 1");
		Gap gap = gap();

		try (Connection connection = this.server.connect(this.database)) {
			GapReads.Chosen chosen = GapReads.choose(connection, gap, List.of("public.customers", "public.notes"),
					2048);

			assertThat(chosen.read()).containsExactly("public.customers", "public.notes");
			assertThat(chosen.first()).containsExactly("public.notes");
			assertThat(chosen.filters()).containsOnlyKeys("public.notes");
			assertThat(chosen.more()).hasSizeGreaterThan(1).allSatisfy((slice) -> {
				assertThat(slice).containsOnlyKeys("public.customers");
				assertThat(tools.jackson.databind.json.JsonMapper.builder()
					.build()
					.writeValueAsString(Map.of("data-collections", List.of("public.customers"), "type", "incremental",
							"additional-conditions",
							List.of(Map.of("data-collection", "public.customers", "filter",
									slice.get("public.customers")))))
					.length()).isLessThanOrEqualTo(2048);
			});
			String union = chosen.more()
				.stream()
				.map((slice) -> "(" + slice.get("public.customers") + ")")
				.collect(Collectors.joining(" OR "));
			assertThat(this.server.queryForString(this.database,
					"SELECT count(*) || ' ' || min(id) || ' ' || max(id) FROM customers WHERE " + union))
				.isEqualTo("300 1 300");
			assertThat(chosen.answer().conditions().get("public.customers"))
				.isEqualTo("300 keys inserted or updated in the gap, in " + chosen.more().size()
						+ " signals of their own (each fits the signal table's data column, 2048 characters)");
			assertThat(chosen.answer().readWhole()).isEmpty();
		}
	}

	@Test
	void keysThatWouldTakeTooManySignalsOrHalfTheTableAreReadWholeSayingSo() throws SQLException {
		this.server.execute(this.database, "UPDATE customers SET name = 'changed' WHERE id <= 300");
		Gap few = gap();
		this.server.execute(this.database, "UPDATE customers SET name = 'again' WHERE id <= 600", "ANALYZE customers",
				"SELECT pg_drop_replication_slot('" + SlotCopies.copyOf("consumer") + "')");
		Gap most = gap();

		try (Connection connection = this.server.connect(this.database)) {
			GapReads.Chosen tooMany = GapReads.choose(connection, few, List.of("public.customers"), 300);
			assertThat(tooMany.more()).isEmpty();
			assertThat(tooMany.filters()).isEmpty();
			assertThat(tooMany.first()).containsExactly("public.customers");
			assertThat(tooMany.answer().readWhole().get("public.customers"))
				.isEqualTo("its 300 keys inserted or updated in the gap would take more than " + GapReads.MAX_SIGNALS
						+ " signals of the signal table's data column (300 characters): read whole");

			GapReads.Chosen cheaper = GapReads.choose(connection, most, List.of("public.customers"), 2048);
			assertThat(cheaper.more()).isEmpty();
			assertThat(cheaper.answer().readWhole().get("public.customers"))
				.isEqualTo("its 600 keys inserted or updated in the gap are half or more of its about 1000 rows, so"
						+ " one read of the whole table is cheaper than a signal per slice of keys: read whole");
			this.server.execute(this.database,
					"CREATE TABLE signals (id varchar(42) PRIMARY KEY, type varchar(32), data varchar(2048))");
			assertThat(GapReads.dataLength(connection, "public.signals")).isEqualTo(2048);
		}
	}

	private Gap gap() throws SQLException {
		return new Gap("0/0", "0/0",
				SlotRecipes.journal(this.server, this.database, "consumer", List.of("cdc"), 100_000), null);
	}

}
