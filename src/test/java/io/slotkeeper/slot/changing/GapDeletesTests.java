package io.slotkeeper.slot.changing;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

import io.micrometer.core.instrument.MeterRegistry;
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
 * The rows deleted while a slot was lost, counted on a real server and configured through
 * environment variables: 3 rows of one captured table deleted and another table truncated
 * during the outage, the slot lost and healed. The heal's audit, the slot's lineage and
 * the counters say 3 for the one and "unknown" for the truncated one; of 32 deletes after
 * the recreate, which the consumer sees, only those of the recount's few seconds are
 * counted again (not those until {@code recheck-after}). Before PostgreSQL 15 every count
 * is unknown, saying why, never 0.
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
	void deletesWhileLostAreCountedATruncatedTableIsUnknownAndDeletesAfterTheRecountAreNot() {
		start();
		Fleet fleet = this.app.getBean(Fleet.class);
		// A reading before the slot is made: on an idle server the next may not come
		// before the loss.
		await().atMost(Duration.ofSeconds(30))
			.until(() -> fleet.get("books").tableCounters().before(Long.MAX_VALUE).isPresent());
		MeterRegistry registry = this.app.getBean(MeterRegistry.class);
		// At 0 before the first recreate, so that an alert on its increase sees the
		// first.
		await().atMost(Duration.ofSeconds(30))
			.until(() -> registry.find("slotkeeper.slot.gap.counts").tag("slot", "cdc").counters().size() == 3);
		assertThat(outcome(registry, "deleted")).isZero();
		this.server.execute(DATABASE, "SELECT pg_create_logical_replication_slot('cdc', 'test_decoding')");
		await().atMost(Duration.ofSeconds(30))
			.until(() -> fleet.get("books")
				.tableCounters()
				.before(this.target.lsn("SELECT confirmed_flush_lsn FROM pg_replication_slots WHERE slot_name = 'cdc'"))
				.isPresent());
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
		assertThat(heal.substring(heal.indexOf("deletesInGap=")))
			.startsWith("deletesInGap=public.customers 3;" + " unknown: public.invoices (its file changed: TRUNCATE")
			.doesNotContain("public.products");
		assertThat(this.server.queryForString(DATABASE, "SELECT gap_deletes::jsonb -> 'tables' ->> 'public.customers'"
				+ " FROM slotkeeper.slot_lineage WHERE slot = 'cdc'"))
			.isEqualTo("3");
		assertThat(registry.get("slotkeeper.slot.gap.deletes").tag("table", "public.customers").counter().count())
			.isEqualTo(3);
		assertThat(outcome(registry, "deleted")).isEqualTo(1);
		assertThat(outcome(registry, "unknown")).isEqualTo(1);
		assertThat(outcome(registry, "none")).isZero();
		// The consumer sees every delete after the recreate through the new slot: only
		// those in the seconds before
		// the recount's reading are counted (as a commit the server showed late would
		// be), not those until the next
		// poll or recheck-after.
		long healSeen = System.currentTimeMillis();
		List<Long> deletedAt = new CopyOnWriteArrayList<>();
		ScheduledExecutorService deleter = Executors.newSingleThreadScheduledExecutor();
		try {
			deleter.scheduleAtFixedRate(() -> {
				if (deletedAt.size() < 32) {
					this.server.execute(DATABASE, "DELETE FROM customers WHERE id = " + (11 + deletedAt.size()));
					deletedAt.add(System.currentTimeMillis());
				}
			}, 0, 250, TimeUnit.MILLISECONDS);
			await().atMost(Duration.ofSeconds(30)).until(() -> deletedAt.size() == 32);
		}
		finally {
			deleter.shutdownNow();
		}
		SlotService slots = this.app.getBean(SlotService.class);
		await().atMost(Duration.ofSeconds(30)).until(() -> !slots.followUps().gapDeletesWaiting(fleet.get("books")));
		long beforeRecount = deletedAt.stream()
			.filter((at) -> at < healSeen + (GapDeleteCounts.SETTLE_SECONDS + 2) * 1000L)
			.count();
		double reported = registry.get("slotkeeper.slot.gap.deletes")
			.tag("table", "public.customers")
			.counter()
			.count();
		assertThat(reported)
			.as("deletes counted of 3 in the gap and 32 after the recreate, %d of them within %d s", beforeRecount,
					GapDeleteCounts.SETTLE_SECONDS + 2)
			.isBetween(3.0, 3.0 + beforeRecount);
		String lineage = this.server.queryForString(DATABASE, "SELECT gap_deletes::jsonb -> 'tables' ->> "
				+ "'public.customers' FROM slotkeeper.slot_lineage WHERE slot = 'cdc'");
		assertThat(Double.parseDouble(lineage)).isEqualTo(reported);
		List<String> recounts = SignalledTarget.entries(audit, "slot.gap-deletes");
		if (reported > 3) {
			assertThat(recounts).singleElement().asString().contains("after the recreate for commits counted late");
			// The recount found no outcome the first had not: the alert is not raised
			// twice.
		}
		assertThat(outcome(registry, "deleted")).isEqualTo(1);
	}

	private static double outcome(MeterRegistry registry, String outcome) {
		return registry.get("slotkeeper.slot.gap.counts").tag("slot", "cdc").tag("outcome", outcome).counter().count();
	}

	private void start() {
		this.app = this.target.start("books",
				Map.ofEntries(Map.entry("RESNAPSHOT_COLLECTIONS", "public.customers,public.invoices,public.products"),
						Map.entry("RESNAPSHOT_RECHECK_AFTER", "10s")));
	}

}
