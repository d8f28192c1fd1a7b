package io.slotkeeper;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import java.util.stream.Collectors;
import java.util.stream.LongStream;

import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.test.web.servlet.client.RestTestClient;

import io.slotkeeper.gap.GapJournals;
import io.slotkeeper.security.TokenHashes;
import io.slotkeeper.sessions.Lsn;
import io.slotkeeper.testbed.Browser;
import io.slotkeeper.testbed.CdcConnector;
import io.slotkeeper.testbed.PostgresServer;
import io.slotkeeper.testbed.PostgresTestBed;
import io.slotkeeper.testbed.SlotRecipes;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The recovery story the connector tests play: a server whose slot can be lost, a
 * Debezium connector consuming it (on a real Kafka Connect worker, through a Strimzi
 * resource, or on the embedded stand-in), and slot-keeper healing the slot; rows written
 * before, during and after the outage, each counted where the connector delivered it.
 */
final class RecoveryPipeline {

	static final String TOKEN = "debezium-viewer-token";

	static final String OPERATOR = "debezium-operator-token";

	private RecoveryPipeline() {
	}

	static Set<Long> ids(long from, long to) {
		return LongStream.rangeClosed(from, to).boxed().collect(Collectors.toSet());
	}

	/**
	 * Starts the connector of a pipeline on its database.
	 */
	@FunctionalInterface
	interface Connectors {

		CdcConnector start(PostgresServer server, String database, Map<String, String> settings);

	}

	/**
	 * A server, a Debezium connector on Kafka Connect, and slot-keeper healing the
	 * connector's slot.
	 */
	static final class Pipeline implements AutoCloseable {

		final PostgresServer server = PostgresTestBed.dedicated(Map.of("max_slot_wal_keep_size", "1MB"));

		final String database = this.server.createDatabase();

		final CdcConnector engine;

		private final List<String> args;

		ConfigurableApplicationContext app;

		RestTestClient client;

		Pipeline(Connectors connectors, String offsetsMode, String resnapshot) {
			this(connectors, offsetsMode, resnapshot, "recreate");
		}

		Pipeline(Connectors connectors, String offsetsMode, String resnapshot, String onLost) {
			this(connectors, offsetsMode, resnapshot, onLost, Map.of());
		}

		Pipeline(Connectors connectors, String offsetsMode, String resnapshot, String onLost,
				Map<String, String> connector) {
			this(connectors, connector, List.of(), (pipeline) -> pipeline.healing(offsetsMode, resnapshot, onLost));
		}

		/**
		 * A pipeline whose slot-keeper is configured by the function, given the server,
		 * database and connector.
		 */
		Pipeline(Connectors connectors, Map<String, String> connector, Function<Pipeline, List<String>> configuration) {
			this(connectors, connector, List.of(), configuration);
		}

		/**
		 * A pipeline whose database gets further statements (tables the connector
		 * captures) before the connector starts, and whose slot-keeper is configured by
		 * the function.
		 */
		Pipeline(Connectors connectors, Map<String, String> connector, List<String> setup,
				Function<Pipeline, List<String>> configuration) {
			this.server.execute(this.database, "CREATE TABLE orders (id bigserial PRIMARY KEY, item text)",
					"ALTER SEQUENCE orders_id_seq RESTART WITH 1000000",
					"CREATE TABLE debezium_signal (id varchar(42) PRIMARY KEY, type varchar(32) NOT NULL,"
							+ " data varchar(2048))");
			if (!setup.isEmpty()) {
				this.server.execute(this.database, setup.toArray(String[]::new));
			}
			this.engine = connectors.start(this.server, this.database, connector);
			await().atMost(Duration.ofSeconds(60)).until(() -> "RUNNING".equals(this.engine.state()));
			// A task reported RUNNING may not have made its slot yet: rows written before
			// that are never streamed.
			await().atMost(Duration.ofSeconds(60))
				.until(() -> "1".equals(this.server.queryForString(this.database,
						"SELECT count(*) FROM pg_replication_slots WHERE slot_name = 'debezium'")));
			this.args = new ArrayList<>(List.of("--server.port=0", "--slotkeeper.api.tokens[0].name=dashboard",
					"--slotkeeper.api.tokens[0].role=viewer",
					"--slotkeeper.api.tokens[0].sha256=" + TokenHashes.sha256Hex(TOKEN),
					"--slotkeeper.api.tokens[1].name=ci", "--slotkeeper.api.tokens[1].role=operator",
					"--slotkeeper.api.tokens[1].sha256=" + TokenHashes.sha256Hex(OPERATOR)));
			this.args.addAll(configuration.apply(this));
			startApplication();
		}

		/**
		 * slot-keeper healing the connector's slot {@code debezium} on target
		 * {@code orders}, as configured here.
		 */
		List<String> healing(String offsetsMode, String resnapshot, String onLost) {
			List<String> args = new ArrayList<>(List.of("--slotkeeper.targets[0].name=orders",
					"--slotkeeper.targets[0].url=" + this.server.jdbcUrl(this.database),
					"--slotkeeper.targets[0].username=" + this.server.user(),
					"--slotkeeper.targets[0].heartbeat.interval=200ms",
					"--slotkeeper.targets[0].slots-poll-interval=200ms",
					"--slotkeeper.targets[0].slots[0].name=debezium",
					"--slotkeeper.targets[0].slots[0].on-lost=" + onLost,
					"--slotkeeper.targets[0].slots[0].connector.offsets=" + offsetsMode,
					"--slotkeeper.targets[0].slots[0].connector.running-timeout=30s",
					"--slotkeeper.targets[0].slots[0].resnapshot.mode=" + resnapshot));
			args.addAll(this.engine.slotKeeperSettings("slotkeeper.targets[0].slots[0].connector"));
			return args;
		}

		private void startApplication() {
			this.app = new SpringApplicationBuilder(SlotKeeperApplication.class).run(this.args.toArray(String[]::new));
			this.client = RestTestClient.bindToServer()
				.baseUrl("http://localhost:" + this.app.getEnvironment().getProperty("local.server.port"))
				.defaultHeader("Authorization", "Bearer " + TOKEN)
				.build();
		}

		// A new pod: nothing of the last one's memory, only what it kept in the target's
		// database.
		void restartApplication() {
			this.app.close();
			startApplication();
		}

		List<Map<?, ?>> audit(String action) {
			List<?> entries = this.client.get()
				.uri("/api/v1/audit")
				.exchange()
				.expectBody(List.class)
				.returnResult()
				.getResponseBody();
			return entries.stream()
				.<Map<?, ?>>map((entry) -> (Map<?, ?>) entry)
				.filter((entry) -> action.equals(entry.get("action")))
				.toList();
		}

		// Rows 1–200 captured, the task gone, rows 201–400 written, the slot lost:
		// healing takes it from there.
		long healAfterALoss() {
			long lost = loseAfterACrash();
			awaitHeal();
			return lost;
		}

		// Kafka Connect stays down 15 s after the recreate, as when its outage is why the
		// slot was lost: the handover
		// waits all that time, kept in the target's database.
		void connectStaysDownAfterTheRecreate() {
			await().during(Duration.ofSeconds(15))
				.atMost(Duration.ofSeconds(20))
				.until(() -> "1"
					.equals(this.server.queryForString(this.database, "SELECT count(*) FROM slotkeeper.handovers")));
		}

		// The slot.handover audit of a handover kept while Kafka Connect was away, once
		// it
		// ended (the heal's own handover audit says it was kept).
		String awaitKeptHandover() {
			await().atMost(Duration.ofSeconds(90)).until(() -> !keptHandovers().isEmpty());
			return keptHandovers().get(0).toString();
		}

		private List<Map<?, ?>> keptHandovers() {
			return audit("slot.handover").stream()
				.filter((entry) -> String.valueOf(entry.get("detail")).contains("(kept at "))
				.toList();
		}

		// The heal is audited once the slot is made, its connector's handover when it
		// ends.
		void awaitHeal() {
			await().atMost(Duration.ofSeconds(60))
				.until(() -> !audit("slot.heal").isEmpty() && !audit("slot.handover").isEmpty());
		}

		// Rows 1–200 captured and confirmed (as after a while of running: the connector
		// confirms once their offsets are committed), the task gone, and a gap journal
		// kept of its slot from there.
		void journalAfterACrash() {
			write(1, 200);
			long written = Lsn.parse(this.server.queryForString(this.database, "SELECT pg_current_wal_insert_lsn()"));
			await().atMost(Duration.ofSeconds(30))
				.until(() -> this.engine.deliveries().keySet().containsAll(ids(1, 200)));
			await().atMost(Duration.ofSeconds(60))
				.until(() -> Lsn.parse(this.server.queryForString(this.database,
						"SELECT confirmed_flush_lsn FROM pg_replication_slots WHERE slot_name = 'debezium'")) >= written);
			this.engine.crash();
			GapJournals journals = this.app.getBean(GapJournals.class);
			await().atMost(Duration.ofSeconds(30))
				.until(() -> journals.describe("orders").getOrDefault("debezium", "").startsWith("since "));
		}

		/**
		 * What the page says on a slot's row, once it says it.
		 * @param slot the slot
		 * @param css the line's class
		 * @param until what it must say
		 * @return the line
		 */
		String pageLine(String slot, String css, java.util.function.Predicate<String> until) {
			try (Browser browser = Browser.start()) {
				browser.signIn("http://localhost:" + this.app.getEnvironment().getProperty("local.server.port") + "/",
						TOKEN);
				String line = browser.awaitText("tr[data-slot='" + slot + "'] ." + css, until);
				assertThat(browser.unexpectedProblems()).isEmpty();
				return line;
			}
		}

		/**
		 * The gap's deletes' and events' delivery, as the extension acknowledged it.
		 */
		Map<?, ?> awaitGapDelivery() {
			await().atMost(Duration.ofSeconds(60)).until(() -> !audit("slot.gap-delivery").isEmpty());
			return audit("slot.gap-delivery").get(0);
		}

		long loseAfterACrash() {
			return loseAfter(this.engine::crash);
		}

		long loseAfter(Runnable outage) {
			write(1, 200);
			await().atMost(Duration.ofSeconds(30))
				.until(() -> this.engine.deliveries().keySet().containsAll(ids(1, 200)));
			outage.run();
			write(201, 400);
			SlotRecipes.lose(this.server, this.database, "debezium");
			return System.nanoTime();
		}

		// As after a failover where Debezium created the missing slot itself: the slot is
		// new, the task's stored offset
		// predates it, and the task fails on its restart.
		long replaceTheSlotBehindTheConnector() {
			write(1, 200);
			await().atMost(Duration.ofSeconds(30))
				.until(() -> this.engine.deliveries().keySet().containsAll(ids(1, 200)));
			this.engine.crash();
			write(201, 400);
			this.server.execute(this.database, "SELECT pg_drop_replication_slot('debezium')",
					"SELECT pg_create_logical_replication_slot('debezium', 'pgoutput')");
			long restarted = System.nanoTime();
			this.engine.restart();
			await().atMost(Duration.ofSeconds(30))
				.until(() -> "FAILED".equals(this.engine.state()) || !this.audit("slot.handover").isEmpty());
			return restarted;
		}

		// Rows 401–500 written, then every row awaited: when the last of 201–400 (those
		// the outage put at risk) arrived.
		long writeTheRestAndAwaitEveryRow() {
			write(401, 500);
			Set<Long> written = written();
			await().atMost(Duration.ofSeconds(90)).until(() -> this.engine.deliveries().keySet().containsAll(written));
			return LongStream.rangeClosed(201, 400).map((id) -> this.engine.arrivedAt(id)).max().orElseThrow();
		}

		void write(long from, long to) {
			this.server.execute(this.database, "INSERT INTO orders (id, item) SELECT n, 'row ' || n FROM"
					+ " generate_series(" + from + ", " + to + ") AS n");
		}

		Set<Long> written() {
			Set<Long> ids = new HashSet<>();
			for (String id : this.server.queryForString(this.database, "SELECT string_agg(id::text, ',') FROM orders")
				.split(",")) {
				ids.add(Long.parseLong(id));
			}
			return ids;
		}

		Set<Long> missing() {
			Set<Long> missing = new HashSet<>(written());
			missing.removeAll(this.engine.deliveries().keySet());
			return missing;
		}

		@Override
		public void close() {
			this.app.close();
			this.engine.close();
			this.server.close();
		}

	}

}
