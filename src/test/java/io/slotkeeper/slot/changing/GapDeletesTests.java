package io.slotkeeper.slot.changing;

import java.time.Duration;
import java.util.Map;

import io.micrometer.core.instrument.MeterRegistry;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import org.springframework.context.ConfigurableApplicationContext;

import io.slotkeeper.audit.AuditJournal;
import io.slotkeeper.fleet.Fleet;
import io.slotkeeper.testbed.PostgresServer;
import io.slotkeeper.testbed.SlotRecipes;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The rows deleted while a slot was lost, counted on a real server and configured through environment variables: 3
 * rows of one captured table deleted and another table truncated during the outage, the slot lost and healed. The
 * heal's audit, the slot's lineage and the counters say 3 for the one and "unknown" for the truncated one; a delete
 * the counters show after the recreate is counted again at the recheck. Before PostgreSQL 15 every count is unknown,
 * saying why, never 0.
 */
@Tag("pg-compat")
class GapDeletesTests {

	private static final String DATABASE = "books";

	private final PostgresServer server = SlotRecipes.lossyServer(DATABASE,
			"CREATE TABLE customers (id bigint PRIMARY KEY, name text)",
			"CREATE TABLE invoices (id bigint PRIMARY KEY, total numeric)",
			"CREATE TABLE products (id bigint PRIMARY KEY, name text)",
			"CREATE TABLE debezium_signal (id varchar(42) PRIMARY KEY, type varchar(32) NOT NULL, data varchar(2048))",
			"INSERT INTO customers SELECT n, 'c' || n FROM generate_series(1, 100) AS n",
			"INSERT INTO invoices SELECT n, n FROM generate_series(1, 100) AS n",
			"INSERT INTO products SELECT n, 'p' || n FROM generate_series(1, 100) AS n");

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
	void threeDeletesWhileLostAreReportedAsThreeAndATruncatedTableAsUnknown() {
		start();
		Fleet fleet = this.app.getBean(Fleet.class);
		// A reading before the slot is made: on an idle server the next may not come before the loss.
		await().atMost(Duration.ofSeconds(30)).until(() -> fleet.get("books").tableCounters().before(Long.MAX_VALUE)
			.isPresent());
		MeterRegistry registry = this.app.getBean(MeterRegistry.class);
		// At 0 before the first recreate, so that an alert on its increase sees the first.
		await().atMost(Duration.ofSeconds(30)).until(() -> registry.find("slotkeeper.slot.gap.counts").tag("slot", "cdc")
			.counters().size() == 3);
		assertThat(outcome(registry, "deleted")).isZero();
		this.server.execute(DATABASE, "SELECT pg_create_logical_replication_slot('cdc', 'test_decoding')");
		await().atMost(Duration.ofSeconds(30)).until(() -> fleet.get("books").tableCounters()
			.before(this.target.lsn("SELECT confirmed_flush_lsn FROM pg_replication_slots WHERE slot_name = 'cdc'")).isPresent());
		this.server.execute(DATABASE, "DELETE FROM customers WHERE id IN (7, 8, 9)", "TRUNCATE invoices",
				"UPDATE products SET name = 'changed' WHERE id = 1");
		SlotRecipes.lose(this.server, DATABASE, "cdc");
		AuditJournal audit = this.app.getBean(AuditJournal.class);
		await().atMost(Duration.ofSeconds(60)).until(() -> !SignalledTarget.entries(audit, "slot.heal").isEmpty());
		String heal = SignalledTarget.entries(audit, "slot.heal").get(0);
		if (this.target.version() < 150000) {
			assertThat(heal).contains("deletesInGap=unknown: PostgreSQL before 15 may lose table counters");
			assertThat(outcome(registry, "unknown")).isEqualTo(1);
			assertThat(outcome(registry, "deleted")).isZero();
			assertThat(registry.find("slotkeeper.slot.gap.deletes").counters()).isEmpty();
			return;
		}
		assertThat(heal.substring(heal.indexOf("deletesInGap="))).startsWith("deletesInGap=public.customers 3;"
				+ " unknown: public.invoices (its file changed: TRUNCATE").doesNotContain("public.products");
		assertThat(this.server.queryForString(DATABASE, "SELECT gap_deletes::jsonb -> 'tables' ->> 'public.customers'"
				+ " FROM slotkeeper.slot_lineage WHERE slot = 'cdc'")).isEqualTo("3");
		assertThat(registry.get("slotkeeper.slot.gap.deletes").tag("table", "public.customers").counter().count())
			.isEqualTo(3);
		assertThat(outcome(registry, "deleted")).isEqualTo(1);
		assertThat(outcome(registry, "unknown")).isEqualTo(1);
		assertThat(outcome(registry, "none")).isZero();
		// Shown after the recreate, as a commit the server counted late would be: the recheck counts it too.
		this.server.execute(DATABASE, "DELETE FROM customers WHERE id = 10");
		await().atMost(Duration.ofSeconds(30)).until(() -> !SignalledTarget.entries(audit, "slot.gap-deletes").isEmpty());
		assertThat(SignalledTarget.entries(audit, "slot.gap-deletes").get(0)).contains("deletesInGap=public.customers 4")
			.contains("after the recreate for commits counted late");
		assertThat(registry.get("slotkeeper.slot.gap.deletes").tag("table", "public.customers").counter().count())
			.isEqualTo(4);
		assertThat(this.server.queryForString(DATABASE, "SELECT gap_deletes::jsonb -> 'tables' ->> 'public.customers'"
				+ " FROM slotkeeper.slot_lineage WHERE slot = 'cdc'")).isEqualTo("4");
		// The recount found no outcome the first had not: the alert is not raised twice.
		assertThat(outcome(registry, "deleted")).isEqualTo(1);
	}

	private static double outcome(MeterRegistry registry, String outcome) {
		return registry.get("slotkeeper.slot.gap.counts").tag("slot", "cdc").tag("outcome", outcome).counter().count();
	}

	private void start() {
		this.app = this.target.start("books", Map.ofEntries(
				Map.entry("RESNAPSHOT_COLLECTIONS", "public.customers,public.invoices,public.products"),
				Map.entry("RESNAPSHOT_RECHECK_AFTER", "5s")));
	}


}
