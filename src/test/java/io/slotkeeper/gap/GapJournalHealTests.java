package io.slotkeeper.gap;

import java.time.Duration;
import java.util.Map;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import org.springframework.context.ConfigurableApplicationContext;

import io.slotkeeper.audit.AuditJournal;
import io.slotkeeper.testbed.PostgresServer;
import io.slotkeeper.testbed.SignalledTarget;
import io.slotkeeper.testbed.SlotRecipes;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A slot's consumer away, configured through environment variables: its journal starts
 * once it has been away for {@code after}, follows the server's head through its copy,
 * and when the slot is lost and healed the heal's audit says exactly what the consumer
 * missed, per table, by count: 3 deletes, 1 update, 1 insert and a truncate, and every
 * row the loss itself wrote.
 */
@Tag("pg-compat")
class GapJournalHealTests {

	private static final String DATABASE = "shop";

	private final PostgresServer server = SlotRecipes.lossyServer(DATABASE,
			"ALTER DATABASE " + DATABASE + " SET synchronous_commit = on",
			"CREATE TABLE customers (id bigint PRIMARY KEY, name text)",
			"CREATE TABLE invoices (id bigint PRIMARY KEY, total numeric)",
			"CREATE TABLE products (id bigint PRIMARY KEY, name text)",
			"CREATE TABLE debezium_signal (id varchar(42) PRIMARY KEY, type varchar(32) NOT NULL, data varchar(2048))",
			"INSERT INTO customers SELECT n, 'c' || n FROM generate_series(1, 100) AS n",
			"INSERT INTO invoices SELECT n, n FROM generate_series(1, 100) AS n",
			"INSERT INTO products SELECT n, 'p' || n FROM generate_series(1, 100) AS n",
			"CREATE PUBLICATION shop_cdc FOR ALL TABLES");

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
	void aHealSaysExactlyWhatTheConsumerMissedWhileItWasAway() {
		this.app = this.target.start(DATABASE,
				Map.of("RESNAPSHOT_COLLECTIONS", "public.customers,public.invoices,public.products"),
				Map.of("SLOTKEEPER_GAP_JOURNAL_AFTER", "1s"));
		this.server.execute(DATABASE, "SELECT pg_create_logical_replication_slot('cdc', 'pgoutput')");
		GapJournals journals = this.app.getBean(GapJournals.class);
		await().atMost(Duration.ofSeconds(30)).until(() -> journals.describe(DATABASE).containsKey("cdc"));
		assertThat(journals.describe(DATABASE).get("cdc")).startsWith("since ");
		this.server.execute(DATABASE, "DELETE FROM customers WHERE id IN (7, 8, 9)",
				"UPDATE products SET name = 'changed' WHERE id = 1", "TRUNCATE invoices",
				"INSERT INTO customers VALUES (1001, 'new')");
		String copy = SlotCopies.copyOf("cdc");
		SlotRecipes.loseBeforeItsCopy(this.server, DATABASE, "cdc", copy);

		AuditJournal audit = this.app.getBean(AuditJournal.class);
		await().atMost(Duration.ofSeconds(60)).until(() -> !SignalledTarget.entries(audit, "slot.heal").isEmpty());
		String heal = SignalledTarget.entries(audit, "slot.heal").get(0);
		assertThat(heal).contains("gap=exact but for some tables, ")
			.contains("public.customers 1 inserted, 3 deleted")
			.contains("public.products 1 updated")
			.contains("public.invoices truncated at ")
			.contains("public.orders " + this.server.queryForString(DATABASE, "SELECT count(*) FROM orders")
					+ " inserted");
		assertThat(heal.substring(heal.indexOf("gap="))).doesNotContain("1001");
		// The re-snapshot reads exactly the keys inserted or updated, the truncated table
		// whole.
		assertThat(heal).contains("resnapshot=signal ");
		String filters = "SELECT string_agg(c ->> 'data-collection' || ': ' || (c ->> 'filter'), '; ' ORDER BY 1)"
				+ " FROM debezium_signal, jsonb_array_elements(data::jsonb -> 'additional-conditions') AS c";
		assertThat(this.server.queryForString(DATABASE, filters))
			.isEqualTo("public.customers: (id IN (1001)); public.products: (id IN (1))");
		assertThat(
				this.server.queryForString(DATABASE, "SELECT data::jsonb -> 'data-collections' FROM debezium_signal"))
			.isEqualTo("[\"public.customers\", \"public.invoices\", \"public.products\"]");
	}

	@Test
	void aJournalWhoseSlotIsDroppedEndsAndItsCopyWithIt() {
		this.app = this.target.start(DATABASE, Map.of("RESNAPSHOT_COLLECTIONS", "public.customers"),
				Map.of("SLOTKEEPER_GAP_JOURNAL_AFTER", "1s"));
		this.server.execute(DATABASE, "SELECT pg_create_logical_replication_slot('cdc', 'pgoutput')");
		GapJournals journals = this.app.getBean(GapJournals.class);
		String copies = "SELECT count(*) FROM pg_replication_slots WHERE slot_name LIKE 'slotkeeper_gap_%'";
		await().atMost(Duration.ofSeconds(30)).until(() -> "1".equals(this.server.queryForString(DATABASE, copies)));

		this.server.execute(DATABASE, "SELECT pg_drop_replication_slot('cdc')");

		await().atMost(Duration.ofSeconds(30)).until(() -> "0".equals(this.server.queryForString(DATABASE, copies)));
		assertThat(journals.describe(DATABASE)).doesNotContainKey("cdc");
	}

}
