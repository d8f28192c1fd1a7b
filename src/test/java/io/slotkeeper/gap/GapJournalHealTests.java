package io.slotkeeper.gap;

import java.time.Duration;
import java.util.Map;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import io.micrometer.core.instrument.MeterRegistry;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.test.web.servlet.client.RestTestClient;

import io.slotkeeper.audit.AuditJournal;
import io.slotkeeper.security.TokenHashes;
import io.slotkeeper.testbed.LogicalConsumer;
import io.slotkeeper.testbed.ConnectStub;
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

	private static final String OPERATOR = "gap-operator-token-0123456789";

	private static final String VIEWER = "gap-viewer-token-0123456789";

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
				Map.of("RESNAPSHOT_COLLECTIONS", "public.customers,public.invoices,public.products"), tokens());
		this.server.execute(DATABASE, "SELECT pg_create_logical_replication_slot('cdc', 'pgoutput')");
		GapJournals journals = this.app.getBean(GapJournals.class);
		await().atMost(Duration.ofSeconds(30)).until(() -> journals.describe(DATABASE).containsKey("cdc"));
		assertThat(journals.describe(DATABASE).get("cdc")).startsWith("since ");
		this.server.execute(DATABASE, "DELETE FROM customers WHERE id IN (7, 8, 9)",
				"UPDATE products SET name = 'changed' WHERE id = 1", "TRUNCATE invoices",
				"INSERT INTO customers VALUES (1001, 'new')");
		// While the consumer is away: the journal so far, the keys for an operator only.
		await().atMost(Duration.ofSeconds(30))
			.until(() -> gap(OPERATOR).path("journal").path("tables").path("public.customers").path("inserted").asInt(),
					(inserted) -> inserted == 1);
		JsonNode journaling = gap(OPERATOR);
		assertThat(journaling.path("journal").path("deletedKeys").path("public.customers").toString())
			.isEqualTo("[{\"id\":\"7\"},{\"id\":\"8\"},{\"id\":\"9\"}]");
		assertThat(journaling.path("journal").path("tables").path("public.customers").path("deleted").asInt())
			.isEqualTo(3);
		assertThat(journaling.path("journal").path("exact").asBoolean()).isFalse();
		assertThat(journaling.path("last").isNull()).isTrue();
		JsonNode viewed = gap(VIEWER);
		assertThat(viewed.path("journal").path("tables").path("public.customers").path("deleted").asInt()).isEqualTo(3);
		assertThat(viewed.path("journal").path("deletedKeys").isNull()).isTrue();
		assertThat(viewed.path("deletedKeys").asString()).startsWith("counts only");
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
		// The deletes are the journal's, not the table counters' estimate.
		assertThat(heal).contains("deletesInGap=public.customers 3; unknown: public.invoices (truncated in the gap at ")
			.contains(") (exact, from the gap journal)");
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
		// The gap the heal closed: answered and counted.
		// (Its consumer still away, the new slot gets a journal of its own a second
		// later.)
		JsonNode last = gap(OPERATOR);
		assertThat(last.path("last").path("tables").path("public.customers").path("deleted").asInt()).isEqualTo(3);
		assertThat(last.path("last").path("deletedKeys").path("public.customers").size()).isEqualTo(3);
		assertThat(last.path("last").path("to").asString()).isNotBlank();
		MeterRegistry registry = this.app.getBean(MeterRegistry.class);
		assertThat(registry.get("slotkeeper.slot.gap.changes")
			.tags("slot", "cdc", "table", "public.customers", "change", "deleted")
			.counter()
			.count()).isEqualTo(3.0);
		assertThat(registry.get("slotkeeper.slot.gap.changes")
			.tags("table", "public.invoices", "change", "truncated")
			.counter()
			.count()).isEqualTo(1.0);
		assertThat(registry.get("slotkeeper.slot.gap.deletes").tags("table", "public.customers").counter().count())
			.isEqualTo(3.0);
		assertThat(registry.get("slotkeeper.slot.gap.journaled").tags("outcome", "not_exact").counter().count())
			.isEqualTo(1.0);
	}

	@Test
	void aServerWithOnlyOneFreeSlotLeftGetsNoCopyAndSaysWhyUntilOneMoreIsFree() {
		this.app = this.target.start(DATABASE, Map.of("RESNAPSHOT_COLLECTIONS", "public.customers"), tokens());
		this.server.execute(DATABASE, "SELECT pg_create_logical_replication_slot('cdc', 'pgoutput')",
				"SELECT pg_create_physical_replication_slot('standby_' || n) FROM generate_series(1,"
						+ " current_setting('max_replication_slots')::int"
						+ " - (SELECT count(*)::int FROM pg_replication_slots) - 1) AS n");
		GapJournals journals = this.app.getBean(GapJournals.class);
		await().atMost(Duration.ofSeconds(30))
			.until(() -> journals.notJournaledBecause(DATABASE, "cdc").orElse(""),
					(why) -> why.startsWith("the server has 1 free replication slot(s) of max_replication_slots = "));
		assertThat(journals.describe(DATABASE).get("cdc")).startsWith("not journaled: the server has 1 free");
		String copies = "SELECT count(*) FROM pg_replication_slots WHERE slot_name LIKE 'slotkeeper_gap_%'";
		assertThat(this.server.queryForString(DATABASE, copies)).isEqualTo("0");

		this.server.execute(DATABASE, "SELECT pg_drop_replication_slot('standby_1')");

		await().atMost(Duration.ofSeconds(30)).until(() -> "1".equals(this.server.queryForString(DATABASE, copies)));
		// The reason goes once the journal holds the copy, a moment after it is made.
		await().atMost(Duration.ofSeconds(10)).until(() -> journals.notJournaledBecause(DATABASE, "cdc").isEmpty());
		// The settings audit counts the copy among the slots in use.
		await().atMost(Duration.ofSeconds(30))
			.until(() -> get(VIEWER, "/api/v1/targets/{target}/settings").path("gapCopies").asInt() == 1);
		assertThat(get(VIEWER, "/api/v1/targets/{target}/settings").path("findings").toString())
			.contains("(1 of them copies slot-keeper's gap journals read");
	}

	@Test
	void aConsumerThatReadsTooSlowlyGetsAJournalOnceItsSlotsLossIsNear() throws Exception {
		this.app = this.target.start(DATABASE, Map.of("RESNAPSHOT_COLLECTIONS", "public.customers"),
				Map.of("SLOTKEEPER_GAP_JOURNAL_AFTER", "1h", "SLOTKEEPER_GAP_JOURNAL_WHEN_LOSS_WITHIN", "24h"));
		this.server.execute(DATABASE, "SELECT pg_create_logical_replication_slot('cdc', 'pgoutput')");
		GapJournals journals = this.app.getBean(GapJournals.class);
		String copies = "SELECT count(*) FROM pg_replication_slots WHERE slot_name LIKE 'slotkeeper_gap_%'";
		try (LogicalConsumer stuck = new LogicalConsumer(this.server, DATABASE, "cdc", "shop_cdc", false, false)) {
			await().atMost(Duration.ofSeconds(10))
				.until(() -> "t".equals(this.server.queryForString(DATABASE,
						"SELECT active FROM pg_replication_slots WHERE slot_name = 'cdc'")));
			// Its slot's safe_wal_size shrinks with every write: its loss is near.
			await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(200)).until(() -> {
				this.server.execute(DATABASE, "INSERT INTO customers VALUES ((random() * 1e9)::bigint, 'w')");
				return "1".equals(this.server.queryForString(DATABASE, copies));
			});
			assertThat(this.server.queryForString(DATABASE,
					"SELECT active FROM pg_replication_slots WHERE slot_name = 'cdc'"))
				.isEqualTo("t");
			// The journal holds the copy a moment after the server shows it.
			await().atMost(Duration.ofSeconds(10))
				.until(() -> journals.describe(DATABASE).getOrDefault("cdc", "").startsWith("since "));
		}
	}

	@Test
	void aCopyGoneFromTheServerIsMadeAgainFromTheSlotWhichHasNotMoved() {
		this.app = this.target.start(DATABASE, Map.of("RESNAPSHOT_COLLECTIONS", "public.customers"),
				Map.of("SLOTKEEPER_GAP_JOURNAL_AFTER", "1s"));
		this.server.execute(DATABASE, "SELECT pg_create_logical_replication_slot('cdc', 'pgoutput')");
		GapJournals journals = this.app.getBean(GapJournals.class);
		await().atMost(Duration.ofSeconds(30)).until(() -> journals.describe(DATABASE).containsKey("cdc"));
		String first = journals.describe(DATABASE).get("cdc");
		String from = first.substring(first.indexOf(" from "), first.indexOf(", read to"));

		// As a switchover leaves it behind: a copy is not a failover slot.
		String copy = SlotCopies.copyOf("cdc");
		await().atMost(Duration.ofSeconds(10))
			.until(() -> "1".equals(this.server.queryForString(DATABASE,
					"SELECT count(pg_drop_replication_slot(slot_name)) FROM pg_replication_slots WHERE slot_name = '"
							+ copy + "' AND NOT active")));

		await().atMost(Duration.ofSeconds(30)).until(() -> {
			String now = journals.describe(DATABASE).getOrDefault("cdc", "");
			return now.startsWith("since ") && !now.equals(first) && !now.contains("incomplete")
					&& !now.substring(0, now.indexOf(" from ")).equals(first.substring(0, first.indexOf(" from ")));
		});
		String again = journals.describe(DATABASE).get("cdc");
		assertThat(again.substring(again.indexOf(" from "), again.indexOf(", read to"))).isEqualTo(from);
		assertThat(this.server.queryForString(DATABASE,
				"SELECT count(*) FROM pg_replication_slots WHERE slot_name = '" + copy + "'"))
			.isEqualTo("1");
	}

	// Two callers, an operator and a viewer, and the journal started a second after the
	// consumer goes.
	private static Map<String, String> tokens() {
		return Map.of("SLOTKEEPER_GAP_JOURNAL_AFTER", "1s", "SLOTKEEPER_API_TOKENS_0_NAME", "ops",
				"SLOTKEEPER_API_TOKENS_0_ROLE", "operator", "SLOTKEEPER_API_TOKENS_0_SHA256",
				TokenHashes.sha256Hex(OPERATOR), "SLOTKEEPER_API_TOKENS_1_NAME", "eyes", "SLOTKEEPER_API_TOKENS_1_ROLE",
				"viewer", "SLOTKEEPER_API_TOKENS_1_SHA256", TokenHashes.sha256Hex(VIEWER));
	}

	private JsonNode gap(String token) {
		return get(token, "/api/v1/targets/{target}/slots/cdc/gap");
	}

	private JsonNode get(String token, String path) {
		byte[] body = RestTestClient.bindToServer()
			.baseUrl("http://localhost:" + this.app.getEnvironment().getProperty("local.server.port"))
			.defaultHeader("Authorization", "Bearer " + token)
			.build()
			.get()
			.uri(path, DATABASE)
			.exchange()
			.expectStatus()
			.isOk()
			.expectBody()
			.returnResult()
			.getResponseBodyContent();
		return JsonMapper.builder().build().readTree(body);
	}

	@Test
	void aPublicationTheConnectorNamesAndTheDatabaseLacksMakesTheJournalIncompleteOnceWithoutItsCopy()
			throws Exception {
		try (ConnectStub connect = new ConnectStub()) {
			// Its configuration sets no publication.name: Debezium's dbz_publication,
			// which Debezium has not made yet.
			this.app = this.target.start(DATABASE, Map.of("RESNAPSHOT_COLLECTIONS", "public.customers", "CONNECTOR_URL",
					connect.url(), "CONNECTOR_NAME", "shop-cdc"), Map.of("SLOTKEEPER_GAP_JOURNAL_AFTER", "1s"));
			this.server.execute(DATABASE, "SELECT pg_create_logical_replication_slot('cdc', 'pgoutput')");
			GapJournals journals = this.app.getBean(GapJournals.class);
			// A publication is looked up when a change is decoded.
			await().atMost(Duration.ofSeconds(30)).until(() -> journals.describe(DATABASE).containsKey("cdc"));
			this.server.execute(DATABASE, "DELETE FROM customers WHERE id = 1");
			await().atMost(Duration.ofSeconds(30))
				.until(() -> journals.describe(DATABASE).getOrDefault("cdc", ""),
						(described) -> described.contains(", incomplete: decoding its copy failed after ")
								&& described.endsWith(": publication \"dbz_publication\" does not exist"));
			// Not taken for a copy a switchover left behind: no copy made again and
			// dropped at every poll (every 200 ms here), none kept holding WAL.
			String copies = "SELECT count(*) FROM pg_replication_slots WHERE slot_name LIKE 'slotkeeper_gap_%'";
			await().during(Duration.ofSeconds(2))
				.atMost(Duration.ofSeconds(10))
				.until(() -> this.server.queryForString(DATABASE, copies), "0"::equals);
			assertThat(journals.describe(DATABASE).get("cdc")).doesNotContain("gone from the server");
		}
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
