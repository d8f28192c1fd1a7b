package io.slotkeeper.resnapshot;

import java.time.Duration;
import java.util.Map;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import org.springframework.context.ConfigurableApplicationContext;

import io.slotkeeper.audit.AuditJournal;
import io.slotkeeper.fleet.Fleet;
import io.slotkeeper.testbed.PostgresServer;
import io.slotkeeper.testbed.SignalledTarget;
import io.slotkeeper.testbed.SlotRecipes;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A re-snapshot of only the tables written to while a slot was lost, on a real server,
 * configured through environment variables: four captured tables, two written to during
 * the outage (one of them narrowed to the lost window by its update-timestamp column),
 * the slot lost and healed. The signal names those two; the answer says which were
 * skipped and why; a table written to just after the signal (as a commit the server
 * counted late would be) gets a second signal at the recheck; one never written to is
 * never read; what was read and skipped is kept with the slot's lineage. Before
 * PostgreSQL 15 every table is read, saying why.
 */
@Tag("pg-compat")
class ChangedTablesResnapshotTests {

	private static final String DATABASE = "shop";

	private final PostgresServer server = SlotRecipes.lossyServer(DATABASE,
			"CREATE TABLE customers (id bigint PRIMARY KEY, name text, updated_at timestamptz NOT NULL DEFAULT now())",
			"CREATE TABLE products (id bigint PRIMARY KEY, name text)",
			"CREATE TABLE invoices (id bigint PRIMARY KEY, total numeric)",
			"CREATE TABLE local_orders (id bigint PRIMARY KEY, updated_at timestamp NOT NULL)",
			"INSERT INTO local_orders SELECT n, localtimestamp - interval '1 day' FROM generate_series(1, 100) AS n",
			"CREATE TABLE debezium_signal (id varchar(42) PRIMARY KEY, type varchar(32) NOT NULL, data varchar(2048))",
			"INSERT INTO customers (id, name, updated_at) SELECT n, 'c' || n, now() - interval '1 day'"
					+ " FROM generate_series(1, 1000) AS n",
			"INSERT INTO products SELECT n, 'p' || n FROM generate_series(1, 1000) AS n",
			"INSERT INTO invoices SELECT n, n FROM generate_series(1, 1000) AS n");

	private final SignalledTarget target = new SignalledTarget(this.server, DATABASE);

	private ConfigurableApplicationContext app;

	@AfterEach
	void stop() {
		if (this.app != null) {
			this.app.close();
		}
		this.server.close();
	}

	@Test
	void onlyTheTablesWrittenToWhileTheSlotWasLostAreReadAgainAndALateOneGetsASecondSignal() {
		start();
		Fleet fleet = this.app.getBean(Fleet.class);
		await().atMost(Duration.ofSeconds(30))
			.until(() -> fleet.get("shop").tableCounters().before(Long.MAX_VALUE).isPresent());
		this.server.execute(DATABASE, "SELECT pg_create_logical_replication_slot('cdc', 'test_decoding')");
		await().atMost(Duration.ofSeconds(30))
			.until(() -> fleet.get("shop")
				.tableCounters()
				.before(this.target.lsn("SELECT confirmed_flush_lsn FROM pg_replication_slots WHERE slot_name = 'cdc'"))
				.isPresent());
		this.server.execute(DATABASE, "UPDATE customers SET name = 'changed', updated_at = now() WHERE id <= 10");
		// An application west of UTC that stores its wall time: a window from a UTC
		// instant would miss these rows.
		this.server.execute(DATABASE, "SET TimeZone = 'America/New_York'",
				"UPDATE local_orders SET updated_at = localtimestamp WHERE id <= 5");
		SlotRecipes.lose(this.server, DATABASE, "cdc");
		AuditJournal audit = this.app.getBean(AuditJournal.class);
		await().atMost(Duration.ofSeconds(60)).until(() -> !SignalledTarget.entries(audit, "slot.heal").isEmpty());
		// Written after the signal was chosen and before the recheck: what a commit
		// counted late looks like.
		this.server.execute(DATABASE, "UPDATE products SET name = 'late' WHERE id = 1");
		String heal = SignalledTarget.entries(audit, "slot.heal").get(0);
		if (this.target.version() < 150000) {
			assertThat(heal)
				.contains("for public.orders, public.customers, public.products, public.invoices,"
						+ " public.local_orders")
				.contains("PostgreSQL before 15 may lose table counters")
				.doesNotContain("skipped as unchanged");
			assertThat(signals()).isEqualTo("1");
			assertThat(keptWithTheLineage()).isEqualTo(
					"public.orders,public.customers,public.products,public.invoices," + "public.local_orders / ");
			return;
		}
		assertThat(heal).contains("for public.orders, public.customers, public.local_orders;")
			.contains("skipped as unchanged: public.products, public.invoices")
			.contains("narrowed: {public.customers=\"updated_at\" >= '")
			.contains("read whole: {public.local_orders=its update column updated_at is timestamp without time zone");
		assertThat(this.server.queryForString(DATABASE,
				"SELECT string_agg(c, ',') FROM debezium_signal,"
						+ " jsonb_array_elements_text(data::jsonb -> 'data-collections') AS c"))
			.isEqualTo("public.orders,public.customers,public.local_orders");
		String filter = this.server.queryForString(DATABASE,
				"SELECT data::jsonb -> 'additional-conditions' -> 0 ->>" + " 'filter' FROM debezium_signal");
		assertThat(this.server.queryForString(DATABASE, "SELECT count(*) FROM customers WHERE " + filter))
			.as("the window holds the rows written while the slot was lost, and none of the older ones")
			.isEqualTo("10");
		assertThat(this.server.queryForString(DATABASE, "SELECT count(*) FROM local_orders WHERE " + filter))
			.as("the same window on New York wall times misses the 5 rows written then: why local_orders is read whole")
			.isEqualTo("0");
		await().atMost(Duration.ofSeconds(30))
			.until(() -> !SignalledTarget.entries(audit, "slot.resnapshot").isEmpty());
		assertThat(SignalledTarget.entries(audit, "slot.resnapshot").get(0)).contains("for public.products")
			.doesNotContain("public.invoices");
		assertThat(signals()).isEqualTo("2");
		// Kept with the slot's epoch, where every instance's listing reads it.
		assertThat(keptWithTheLineage())
			.isEqualTo("public.orders,public.customers,public.local_orders,public.products / public.invoices");
		assertThat(
				this.server.queryForString(DATABASE,
						"SELECT count(*) FROM debezium_signal, jsonb_array_elements_text("
								+ "data::jsonb -> 'data-collections') AS c WHERE c = 'public.invoices'"))
			.isEqualTo("0");
	}

	private void start() {
		this.app = this.target.start("shop",
				Map.ofEntries(
						Map.entry("RESNAPSHOT_COLLECTIONS",
								"public.orders,public.customers,public.products,public.invoices,public.local_orders"),
						Map.entry("RESNAPSHOT_TABLES", "changed"), Map.entry("RESNAPSHOT_RECHECK_AFTER", "10s"),
						Map.entry("RESNAPSHOT_UPDATE_COLUMNS_0", "public.customers.updated_at"),
						Map.entry("RESNAPSHOT_UPDATE_COLUMNS_1", "public.local_orders.updated_at"),
						Map.entry("RESNAPSHOT_WINDOW_MARGIN", "0s")));
	}

	private String keptWithTheLineage() {
		return this.server.queryForString(DATABASE, "SELECT array_to_string(resnapshot_read, ',') || ' / ' ||"
				+ " array_to_string(resnapshot_skipped, ',') FROM slotkeeper.slot_lineage WHERE slot = 'cdc'");
	}

	private String signals() {
		return this.server.queryForString(DATABASE, "SELECT count(*) FROM debezium_signal");
	}

}
