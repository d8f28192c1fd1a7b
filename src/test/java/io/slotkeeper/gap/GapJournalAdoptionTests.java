package io.slotkeeper.gap;

import java.time.Duration;
import java.util.Map;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import org.springframework.context.ConfigurableApplicationContext;

import io.slotkeeper.audit.AuditJournal;
import io.slotkeeper.security.TokenHashes;
import io.slotkeeper.testbed.Browser;
import io.slotkeeper.testbed.ConnectStub;
import io.slotkeeper.testbed.LogicalConsumer;
import io.slotkeeper.testbed.PostgresServer;
import io.slotkeeper.testbed.SignalledTarget;
import io.slotkeeper.testbed.SlotRecipes;
import io.slotkeeper.testbed.TcpProxy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A journal kept in the server outlives the instance that kept it: the next owner adopts
 * it with its copy and closes the exact gap, though the slot was lost while no instance
 * ran; a store slot-keeper does not own is never written, and the journal then says it
 * lives in memory only.
 */
class GapJournalAdoptionTests {

	private static final String DATABASE = "shop";

	private static final String VIEWER = "adoption-viewer-token-0123456789";

	private static final String STORED_KEYS = "SELECT count(*) FROM slotkeeper.gap_keys WHERE slot = 'cdc'";

	private final PostgresServer server = SlotRecipes.lossyServer(DATABASE,
			"ALTER DATABASE " + DATABASE + " SET synchronous_commit = on",
			"CREATE TABLE customers (id bigint PRIMARY KEY, name text)",
			"CREATE TABLE debezium_signal (id varchar(42) PRIMARY KEY, type varchar(32) NOT NULL, data varchar(2048))",
			"INSERT INTO customers SELECT n, 'c' || n FROM generate_series(1, 100) AS n",
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
	void theNextOwnerAdoptsTheJournalAndClosesTheExactGapThoughTheSlotWasLostWhileNoInstanceRan() {
		GapJournals journals = journalingCdc();
		this.server.execute(DATABASE, "DELETE FROM customers WHERE id IN (1, 2, 3)");
		// The store's tables are made with the journal's first page.
		await().atMost(Duration.ofSeconds(30))
			.ignoreExceptions()
			.until(() -> "3"
				.equals(this.server.queryForString("postgres", STORED_KEYS + " AND tbl = 'public.customers'")));
		assertThat(journals.describe(DATABASE).get("cdc")).doesNotContain("memory only");

		// The owner takes the copy past the head and stops; the checkpoint then loses
		// the slot, not its copy, while no instance runs, and more is deleted.
		String copy = SlotCopies.copyOf("cdc");
		SlotRecipes.lose(this.server, DATABASE, "cdc", () -> {
			if (this.app != null) {
				SlotRecipes.awaitCopyAtHead(this.server, DATABASE, copy);
				this.app.close();
				this.app = null;
			}
		});
		this.server.execute(DATABASE, "DELETE FROM customers WHERE id IN (4, 5)");

		this.app = start(Map.of());

		AuditJournal audit = this.app.getBean(AuditJournal.class);
		await().atMost(Duration.ofSeconds(60)).until(() -> !SignalledTarget.entries(audit, "slot.heal").isEmpty());
		String heal = SignalledTarget.entries(audit, "slot.heal").get(0);
		assertThat(heal).contains("gap=exact").contains("public.customers 5 deleted");
		assertThat(heal).contains("deletesInGap=public.customers 5 (exact, from the gap journal)");
		// The page shows the gap's changes under the slot's new epoch.
		try (Browser browser = Browser.start()) {
			browser.signIn("http://localhost:" + this.app.getEnvironment().getProperty("local.server.port") + "/",
					VIEWER);
			browser.awaitText("tr[data-slot='cdc'] .gap-changes",
					(line) -> line.startsWith("changed while lost (exactly, from the gap journal): ")
							&& line.contains("public.customers 5 deleted"));
			assertThat(browser.unexpectedProblems()).isEmpty();
		}
	}

	@Test
	void theGapOfAHealWhoseOwnerEndedBeforeItsHandoverIsReadExactlyByTheOwnerThatCompletesIt() throws Exception {
		try (ConnectStub connect = new ConnectStub();
				TcpProxy connectService = new TcpProxy("127.0.0.1", closedPort())) {
			connect.offsets("[{\"partition\":{\"server\":\"shop\"},\"offset\":{\"lsn\":100}}]");
			Map<String, String> connector = Map.of("SLOTKEEPER_TARGETS_0_SLOTS_0_CONNECTOR_URL",
					"http://127.0.0.1:" + connectService.port(), "SLOTKEEPER_TARGETS_0_SLOTS_0_CONNECTOR_NAME",
					"shop-cdc", "SLOTKEEPER_TARGETS_0_SLOTS_0_CONNECTOR_RUNNING_TIMEOUT", "5s");
			this.app = start(connector);
			this.server.execute(DATABASE, "SELECT pg_create_logical_replication_slot('cdc', 'pgoutput')");
			this.server.execute(DATABASE, "DELETE FROM customers WHERE id IN (1, 2, 3)",
					"INSERT INTO customers VALUES (1001, 'new')");
			await().atMost(Duration.ofSeconds(30))
				.ignoreExceptions()
				.until(() -> "4"
					.equals(this.server.queryForString("postgres", STORED_KEYS + " AND tbl = 'public.customers'")));

			// Lost while Kafka Connect cannot be reached: the heal keeps the handover,
			// and
			// the owner ends before Connect answers.
			SlotRecipes.loseBeforeItsCopy(this.server, DATABASE, "cdc", SlotCopies.copyOf("cdc"));
			AuditJournal audit = this.app.getBean(AuditJournal.class);
			await().atMost(Duration.ofSeconds(60))
				.until(() -> !SignalledTarget.entries(audit, "slot.handover").isEmpty());
			assertThat(SignalledTarget.entries(audit, "slot.heal").get(0)).contains("gap=exact");
			assertThat(SignalledTarget.entries(audit, "slot.handover").get(0))
				.contains("resnapshot=not sent: deferred");
			assertThat(this.server.queryForString(DATABASE, "SELECT count(*) FROM slotkeeper.handovers"))
				.isEqualTo("1");
			this.app.close();
			this.app = null;
			assertThat(storedRowsOf("closed/cdc")).as("the closed gap, kept in the server").startsWith("1 ");

			connectService.retarget("127.0.0.1", java.net.URI.create(connect.url()).getPort());
			this.app = start(connector);
			await().atMost(Duration.ofSeconds(60))
				.until(() -> this.server.queryForString(DATABASE, "SELECT count(*) FROM slotkeeper.handovers"),
						"0"::equals);
			// Exactly the key the gap inserted is read again, as the first owner would
			// have.
			await().atMost(Duration.ofSeconds(30))
				.until(() -> this.server.queryForString(DATABASE,
						"SELECT string_agg(c ->> 'data-collection' || ': ' || (c ->> 'filter'), '; ') FROM"
								+ " debezium_signal, jsonb_array_elements(data::jsonb -> 'additional-conditions') AS c"),
						"public.customers: (id IN (1001))"::equals);
			assertThat(connect.changes()).extracting(ConnectStub.Request::path)
				.contains("/connectors/shop-cdc/offsets", "/connectors/shop-cdc/resume");
			assertThat(storedRowsOf("closed/cdc")).as("the closed gap, forgotten once read").isEqualTo("0 0 0");
		}
	}

	// A port nothing listens on: Connect's pod gone, the proxy playing its Service
	// refuses what it forwards.
	private static int closedPort() throws java.io.IOException {
		try (java.net.ServerSocket socket = new java.net.ServerSocket(0)) {
			return socket.getLocalPort();
		}
	}

	@Test
	void aCopyHeldByAnotherSessionIsReadAgainOnceFreeAndTheJournalStaysComplete() throws Exception {
		GapJournals journals = journalingCdc();
		this.server.execute(DATABASE, "DELETE FROM customers WHERE id = 1");
		await().atMost(Duration.ofSeconds(30)).until(() -> deleted(journals) == 1);

		// As the instance that owned the target before may still be reading it: taken
		// between two of this instance's reads.
		try (LogicalConsumer holder = await().atMost(Duration.ofSeconds(30))
			.ignoreExceptions()
			.until(() -> new LogicalConsumer(this.server, DATABASE, SlotCopies.copyOf("cdc"), "shop_cdc", false, false),
					java.util.Objects::nonNull)) {
			this.server.execute(DATABASE, "DELETE FROM customers WHERE id = 2");
			await().atMost(Duration.ofSeconds(30))
				.until(() -> journals.describe(DATABASE).get("cdc"),
						(described) -> described.contains(", decoding failed, tried again at each poll: "));
		}

		await().atMost(Duration.ofSeconds(30)).until(() -> deleted(journals) == 2);
		assertThat(journals.describe(DATABASE).get("cdc")).doesNotContain("incomplete").doesNotContain("failed");
	}

	private static int deleted(GapJournals journals) {
		return journals.journaling(DATABASE, "cdc", 0)
			.map((reading) -> reading.tables().get("public.customers"))
			.map(GapJournal.TableSummary::deleted)
			.orElse(0);
	}

	@Test
	void aStoreAnotherRoleOwnsIsNeverWrittenAndTheJournalSaysItLivesInMemoryOnly() {
		this.server.execute("postgres", "CREATE ROLE intruder", "CREATE SCHEMA slotkeeper AUTHORIZATION intruder");
		this.app = start(Map.of());
		this.server.execute(DATABASE, "SELECT pg_create_logical_replication_slot('cdc', 'pgoutput')");
		GapJournals journals = this.app.getBean(GapJournals.class);
		this.server.execute(DATABASE, "DELETE FROM customers WHERE id = 1");

		await().atMost(Duration.ofSeconds(30))
			.until(() -> journals.describe(DATABASE).getOrDefault("cdc", ""),
					(described) -> described.contains(
							", kept in memory only (it does not survive a restart): storing it in database 'postgres'"
									+ " failed: "));
		assertThat(journals.describe(DATABASE).get("cdc")).contains("is not slot-keeper's own");
		assertThat(this.server.queryForString("postgres",
				"SELECT count(*) FROM pg_tables WHERE schemaname = 'slotkeeper'"))
			.isEqualTo("0");
	}

	@Test
	void aStoredJournalWhoseCopyIsGoneIsForgottenWhenAJournalIsAdoptedAndOneWhoseCopyExistsIsKept() {
		journalingCdc();
		this.server.execute(DATABASE, "DELETE FROM customers WHERE id = 1");
		await().atMost(Duration.ofSeconds(30))
			.ignoreExceptions()
			.until(() -> "1".equals(this.server.queryForString("postgres", STORED_KEYS)));
		// What an owner that stopped between dropping a journal's copy and deleting its
		// rows leaves ('gone'), beside a journal whose copy is there ('kept', read
		// through the copy of 'cdc').
		for (String[] journal : new String[][] { { "gone", "slotkeeper_gap_gone_0" },
				{ "kept", SlotCopies.copyOf("cdc") } }) {
			this.server.execute("postgres",
					"INSERT INTO slotkeeper.gap_journals SELECT '" + journal[0] + "', database, '" + journal[1]
							+ "', from_lsn, position, transactions, since, publications, incomplete, saved_at"
							+ " FROM slotkeeper.gap_journals WHERE slot = 'cdc'",
					"INSERT INTO slotkeeper.gap_tables SELECT '" + journal[0] + "', tbl, key_columns, why_not_exact,"
							+ " truncates, overflowed FROM slotkeeper.gap_tables WHERE slot = 'cdc'",
					"INSERT INTO slotkeeper.gap_keys SELECT '" + journal[0] + "', tbl, key, lsns, kinds"
							+ " FROM slotkeeper.gap_keys WHERE slot = 'cdc'");
		}

		// The next owner adopts the journal of 'cdc'.
		this.app.close();
		assertThat(storedRowsOf("gone")).isEqualTo("1 1 1");
		this.app = start(Map.of());
		GapJournals next = this.app.getBean(GapJournals.class);
		await().atMost(Duration.ofSeconds(30)).until(() -> next.describe(DATABASE).containsKey("cdc"));

		await().atMost(Duration.ofSeconds(30)).until(() -> storedRowsOf("gone").equals("0 0 0"));
		assertThat(storedRowsOf("kept")).isEqualTo("1 1 1");
	}

	private String storedRowsOf(String slot) {
		return this.server.queryForString("postgres",
				"SELECT (SELECT count(*) FROM slotkeeper.gap_journals WHERE slot = '" + slot + "') || ' ' ||"
						+ " (SELECT count(*) FROM slotkeeper.gap_tables WHERE slot = '" + slot + "') || ' ' ||"
						+ " (SELECT count(*) FROM slotkeeper.gap_keys WHERE slot = '" + slot + "')");
	}

	@Test
	void aStoreInTheCapturedDatabaseIsRefusedAndTheJournalLivesInMemory() {
		this.app = start(Map.of("SLOTKEEPER_GAP_JOURNAL_DATABASE", DATABASE));
		this.server.execute(DATABASE, "SELECT pg_create_logical_replication_slot('cdc', 'pgoutput')");
		GapJournals journals = this.app.getBean(GapJournals.class);

		await().atMost(Duration.ofSeconds(30))
			.until(() -> journals.describe(DATABASE).getOrDefault("cdc", ""),
					(described) -> described.endsWith(", kept in memory only (it does not survive a restart):"
							+ " gap-journal.database is the captured database 'shop', whose publications could"
							+ " carry the journal"));
	}

	// An instance whose journal of slot 'cdc' has started.
	private GapJournals journalingCdc() {
		this.app = start(Map.of());
		this.server.execute(DATABASE, "SELECT pg_create_logical_replication_slot('cdc', 'pgoutput')");
		GapJournals journals = this.app.getBean(GapJournals.class);
		await().atMost(Duration.ofSeconds(30)).until(() -> journals.describe(DATABASE).containsKey("cdc"));
		return journals;
	}

	private ConfigurableApplicationContext start(Map<String, String> more) {
		Map<String, String> settings = new java.util.HashMap<>(more);
		settings.put("SLOTKEEPER_GAP_JOURNAL_AFTER", "1s");
		settings.put("SLOTKEEPER_API_TOKENS_0_NAME", "eyes");
		settings.put("SLOTKEEPER_API_TOKENS_0_ROLE", "viewer");
		settings.put("SLOTKEEPER_API_TOKENS_0_SHA256", TokenHashes.sha256Hex(VIEWER));
		return this.target.start(DATABASE, Map.of("RESNAPSHOT_COLLECTIONS", "public.customers"), settings);
	}

}
