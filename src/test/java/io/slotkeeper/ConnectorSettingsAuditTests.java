package io.slotkeeper;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.test.web.servlet.client.RestTestClient;

import io.slotkeeper.RecoveryPipeline.Pipeline;
import io.slotkeeper.security.TokenHashes;
import io.slotkeeper.sessions.Lsn;
import io.slotkeeper.testbed.KafkaBroker;
import io.slotkeeper.testbed.PostgresServer;
import io.slotkeeper.testbed.PostgresTestBed;
import io.slotkeeper.testbed.RealKafkaConnect;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The connector settings audit against a real Debezium 3.6 connector on a real Kafka
 * Connect worker, each finding that claims a behaviour shown. The heartbeat, measured:
 * three idle databases of one server, each with its connector and slot-keeper's beats
 * every second, beside a neighbour database writing WAL. With the connector's defaults
 * every beat is a record of its message topic and the slot keeps little; with
 * slot-keeper's prefix in {@code message.prefix.exclude.list} and Debezium's own
 * heartbeat off, no record is written and the offset does not move, so the slot keeps the
 * neighbour's WAL as if there were no beats; with Debezium's heartbeat on, the slot keeps
 * little again. Then {@code slot.drop.on.stop} (a stop drops the slot) and
 * {@code trust_offset} with the offsets left alone (the task fails on the recreated
 * slot).
 */
@Tag("pipeline")
class ConnectorSettingsAuditTests {

	private static final String TOKEN = "prefix-viewer-token";

	// Enough of the neighbour's WAL that a slot whose offset does not move is told from
	// one that does.
	private static final long NEIGHBOUR_WAL = Long.getLong("message.prefix.wal", 48L << 20);

	private record Run(String label, String database, String slot, RealKafkaConnect connect,
			KafkaConsumer<String, String> messages, AtomicLong records) {
	}

	@Test
	void beatsBecomeMessageRecordsUnlessExcludedAndExcludedBeatsMoveNoOffsetWithoutDebeziumsHeartbeat()
			throws Exception {
		List<AutoCloseable> closing = new ArrayList<>();
		ScheduledExecutorService neighbour = Executors.newSingleThreadScheduledExecutor();
		try (PostgresServer server = PostgresTestBed.dedicated(Map.of("max_slot_wal_keep_size", "-1"))) {
			List<Run> runs = new ArrayList<>();
			runs.add(start(server, "defaults", "cdc_defaults", Map.of(), closing));
			runs.add(start(server, "prefix excluded", "cdc_excluded",
					Map.of("message.prefix.exclude.list", "slotkeeper_heartbeat"), closing));
			runs.add(start(server, "prefix excluded + heartbeat.interval.ms=5000", "cdc_excluded_heartbeat",
					Map.of("message.prefix.exclude.list", "slotkeeper_heartbeat", "heartbeat.interval.ms", "5000"),
					closing));
			List<String> args = new ArrayList<>(List.of("--server.port=0", "--slotkeeper.api.tokens[0].name=dashboard",
					"--slotkeeper.api.tokens[0].role=viewer",
					"--slotkeeper.api.tokens[0].sha256=" + TokenHashes.sha256Hex(TOKEN)));
			for (int i = 0; i < runs.size(); i++) {
				Run run = runs.get(i);
				String target = "--slotkeeper.targets[" + i + "].";
				args.addAll(List.of(target + "name=" + run.slot().replace('_', '-'),
						target + "url=" + server.jdbcUrl(run.database()), target + "username=" + server.user(),
						target + "heartbeat.interval=1s", target + "slots-poll-interval=1s",
						target + "slots[0].name=" + run.slot()));
				args.addAll(run.connect().slotKeeperSettings("slotkeeper.targets[" + i + "].slots[0].connector"));
			}
			ConfigurableApplicationContext app = new SpringApplicationBuilder(SlotKeeperApplication.class)
				.run(args.toArray(String[]::new));
			closing.add(app);
			RestTestClient client = RestTestClient.bindToServer()
				.baseUrl("http://localhost:" + app.getEnvironment().getProperty("local.server.port"))
				.defaultHeader("Authorization", "Bearer " + TOKEN)
				.build();
			String neighbourDb = server.createDatabase();
			server.execute(neighbourDb, "CREATE TABLE filler (id bigint, pad text)");
			// Every slot starts the window at a position it confirmed: each connector has
			// read at least one beat.
			await().atMost(Duration.ofSeconds(60))
				.until(() -> runs.stream().allMatch((run) -> confirmed(server, run) != null));
			long start = wal(server);
			long started = System.nanoTime();
			neighbour.scheduleAtFixedRate(
					() -> server.execute(neighbourDb,
							"INSERT INTO filler SELECT g," + " repeat('x', 900) FROM generate_series(1, 500) g"),
					0, 250, TimeUnit.MILLISECONDS);
			await().atMost(Duration.ofMinutes(5)).until(() -> wal(server) - start >= NEIGHBOUR_WAL);
			neighbour.shutdownNow();
			long seconds = Duration.ofNanos(System.nanoTime() - started).toSeconds();
			// Debezium confirms what Kafka Connect committed: give the last commit (every
			// second here) time to land.
			long end = wal(server);
			await().atMost(Duration.ofSeconds(30))
				.until(() -> runs.stream()
					.filter((run) -> run != runs.get(1))
					.allMatch((run) -> end - confirmed(server, run) < NEIGHBOUR_WAL / 4));
			long now = wal(server);
			System.out.printf("message prefix, %d s, neighbour wrote %.1f MiB:%n", seconds, (end - start) / 1048576.0);
			for (Run run : runs) {
				System.out.printf(
						"  %-46s %6d message records, confirmed_flush_lsn %.1f MiB behind, restart_lsn"
								+ " %.1f MiB behind%n",
						run.label(), run.records().get(), (now - confirmed(server, run)) / 1048576.0,
						(now - restart(server, run)) / 1048576.0);
			}
			client.get()
				.uri("/api/v1/connectors")
				.exchange()
				.expectStatus()
				.isOk()
				.expectBody()
				.jsonPath("$.connectors[?(@.slot == 'cdc_defaults')].findings[*].setting")
				.isEqualTo(List.of("message.prefix.exclude.list"))
				.jsonPath("$.connectors[?(@.slot == 'cdc_defaults')].findings[0].message")
				.value((message) -> assertThat(message.toString()).contains(runs.get(0).connect().prefix() + ".message")
					.contains("86,400 a day"))
				.jsonPath("$.connectors[?(@.slot == 'cdc_excluded')].findings[*].setting")
				.isEqualTo(List.of("heartbeat.interval.ms"))
				.jsonPath("$.connectors[?(@.slot == 'cdc_excluded')].findings[*].severity")
				.isEqualTo(List.of("critical"))
				.jsonPath("$.connectors[?(@.slot == 'cdc_excluded_heartbeat')].findings[*]")
				.isEmpty()
				.jsonPath("$.connectors[*].source")
				.value((sources) -> assertThat(sources.toString()).contains("configured (target cdc-defaults)"));
			client.get()
				.uri("/api/v1/targets/cdc-excluded/slots")
				.exchange()
				.expectStatus()
				.isOk()
				.expectBody()
				.jsonPath("$[?(@.slotName == 'cdc_excluded')].connectorSettings.findings[0].setting")
				.isEqualTo(List.of("heartbeat.interval.ms"));
			String scrape = new String(
					client.get().uri("/actuator/prometheus").exchange().returnResult(byte[].class).getResponseBody());
			assertThat(scrape).containsPattern("slotkeeper_connector_setting_findings\\{[^}]*connector=\""
					+ RealKafkaConnect.NAME + "\",[^}]*setting=\"heartbeat.interval.ms\",severity=\"critical\","
					+ "slot=\"cdc_excluded\",target=\"cdc-excluded\"} 1");
			assertThat(scrape).as("a slot without findings has its resting series only")
				.containsPattern(
						"slotkeeper_connector_setting_findings\\{connector=\"\",setting=\"\",severity=\"critical\","
								+ "slot=\"cdc_excluded_heartbeat\",[^}]*} 0")
				.doesNotContainPattern(
						"slotkeeper_connector_setting_findings\\{[^}]*slot=\"cdc_excluded_heartbeat\"[^}]*} 1");
			client.get()
				.uri("/api/v1/overview")
				.exchange()
				.expectStatus()
				.isOk()
				.expectBody()
				.jsonPath("$..problems[*]")
				.value((problems) -> assertThat(problems.toString()).contains(
						"connector " + RealKafkaConnect.NAME + ", heartbeat.interval.ms = 0 (default) (critical)"));
			assertThat(runs.get(0).records().get()).isGreaterThanOrEqualTo(seconds / 2);
			assertThat(runs.get(1).records().get()).isZero();
			assertThat(runs.get(2).records().get()).isZero();
			assertThat(now - confirmed(server, runs.get(1))).isGreaterThanOrEqualTo(NEIGHBOUR_WAL);
			assertThat(now - confirmed(server, runs.get(2))).isLessThan(NEIGHBOUR_WAL / 4);
		}
		finally {
			neighbour.shutdownNow();
			for (int i = closing.size() - 1; i >= 0; i--) {
				closing.get(i).close();
			}
		}
	}

	@Test
	void slotDropOnStopIsCriticalAndAStopOfTheConnectorDropsItsSlot() throws Exception {
		try (Pipeline pipeline = new Pipeline(DebeziumRecreateTests::realWorker, "align", "debezium-signal", "recreate",
				Map.of("slot.drop.on.stop", "true"))) {
			await().atMost(Duration.ofSeconds(30))
				.untilAsserted(() -> pipeline.client.get()
					.uri("/api/v1/connectors")
					.exchange()
					.expectBody()
					.jsonPath("$.connectors[0].findings[?(@.setting == 'slot.drop.on.stop')].severity")
					.isEqualTo(List.of("critical")));
			assertThat(((RealKafkaConnect) pipeline.engine).put("/stop")).isEqualTo(204);
			await().atMost(Duration.ofSeconds(30))
				.until(() -> "0".equals(pipeline.server.queryForString(pipeline.database,
						"SELECT count(*) FROM pg_replication_slots WHERE slot_name = 'debezium'")));
		}
	}

	@Test
	void trustOffsetWithTheOffsetsLeftAloneIsCriticalAndTheTaskFailsOnTheRecreatedSlot() throws Exception {
		try (Pipeline pipeline = new Pipeline(DebeziumRecreateTests::realWorker, "leave", "none", "recreate",
				Map.of("offset.mismatch.strategy", "trust_offset"))) {
			await().atMost(Duration.ofSeconds(30))
				.untilAsserted(() -> pipeline.client.get()
					.uri("/api/v1/connectors")
					.exchange()
					.expectBody()
					.jsonPath("$.connectors[0].findings[?(@.setting == 'offset.mismatch.strategy')].severity")
					.isEqualTo(List.of("critical")));
			pipeline.healAfterALoss();
			await().atMost(Duration.ofSeconds(60)).until(() -> "FAILED".equals(pipeline.engine.state()));
			System.out.printf("trust_offset, offsets left alone: after the recreate the task is %s: %s%n",
					pipeline.engine.state(),
					((RealKafkaConnect) pipeline.engine).status()
						.path("tasks")
						.path(0)
						.path("trace")
						.asString()
						.lines()
						.findFirst()
						.map((line) -> line.substring(0, Math.min(line.length(), 120)))
						.orElse(""));
		}
	}

	private static Run start(PostgresServer server, String label, String slot, Map<String, String> settings,
			List<AutoCloseable> closing) {
		String database = server.createDatabase();
		server.execute(database, "CREATE TABLE orders (id bigserial PRIMARY KEY, item text)",
				"CREATE TABLE debezium_signal (id varchar(42) PRIMARY KEY, type varchar(32) NOT NULL,"
						+ " data varchar(2048))");
		RealKafkaConnect connect = new RealKafkaConnect(KafkaBroker.shared(), server, database, slot, settings);
		closing.add(connect);
		await().atMost(Duration.ofSeconds(60))
			.until(() -> "1".equals(server.queryForString(database,
					"SELECT count(*) FROM pg_replication_slots WHERE slot_name = '" + slot + "'")));
		KafkaConsumer<String, String> messages = new KafkaConsumer<>(
				Map.of(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, KafkaBroker.shared().bootstrap(),
						ConsumerConfig.GROUP_ID_CONFIG, "messages-" + slot, ConsumerConfig.AUTO_OFFSET_RESET_CONFIG,
						"earliest", ConsumerConfig.METADATA_MAX_AGE_CONFIG, "500"),
				new StringDeserializer(), new StringDeserializer());
		AtomicLong records = new AtomicLong();
		messages.subscribe(List.of(connect.prefix() + ".message"));
		Thread reader = new Thread(() -> {
			try {
				while (!Thread.currentThread().isInterrupted()) {
					records.addAndGet(messages.poll(Duration.ofMillis(200)).count());
				}
			}
			catch (org.apache.kafka.common.errors.WakeupException
					| org.apache.kafka.common.errors.InterruptException ex) {
				// closed
			}
			finally {
				messages.close(Duration.ofSeconds(2));
			}
		}, "messages-" + slot);
		reader.setDaemon(true);
		reader.start();
		closing.add(() -> {
			messages.wakeup();
			reader.join(5000);
		});
		return new Run(label, database, slot, connect, messages, records);
	}

	private static long wal(PostgresServer server) {
		return Lsn.parse(server.queryForString("postgres", "SELECT pg_current_wal_lsn()::text"));
	}

	private static Long confirmed(PostgresServer server, Run run) {
		String lsn = server.queryForString("postgres", "SELECT confirmed_flush_lsn::text FROM pg_replication_slots"
				+ " WHERE slot_name = '" + run.slot() + "'");
		return (lsn != null) ? Lsn.parse(lsn) : null;
	}

	private static long restart(PostgresServer server, Run run) {
		return Lsn.parse(server.queryForString("postgres",
				"SELECT restart_lsn::text FROM pg_replication_slots" + " WHERE slot_name = '" + run.slot() + "'"));
	}

}
