package io.slotkeeper.bench;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;

import io.slotkeeper.SlotKeeperApplication;
import io.slotkeeper.config.TargetProperties;
import io.slotkeeper.heartbeat.HeartbeatScheduler;
import io.slotkeeper.heartbeat.Heartbeats;
import io.slotkeeper.heartbeat.TargetHeartbeat;
import io.slotkeeper.security.TokenHashes;
import io.slotkeeper.fleet.Lsn;
import io.slotkeeper.fleet.BeatLog;
import io.slotkeeper.fleet.Fleet;
import io.slotkeeper.fleet.NodeConnector;
import io.slotkeeper.testbed.ConnectStub;
import io.slotkeeper.testbed.LogicalConsumer;
import io.slotkeeper.testbed.PostgresServer;
import io.slotkeeper.testbed.PostgresTestBed;
import io.slotkeeper.testbed.SlotRecipes;

import static io.slotkeeper.testbed.TestTargets.target;
import static org.awaitility.Awaitility.await;

/**
 * slot-keeper measured against the alternatives on one embedded PostgreSQL, in one run:
 * {@code ./mvnw -Pbench test}. Writes {@code bench/results/RESULTS.md} and PNG charts. Not part of the test run.
 */
@Tag("bench")
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class SlotKeeperBench {

	private static final Duration BUSY_WINDOW = Duration.ofMinutes(Long.getLong("bench.busy-minutes", 10));

	private static final Duration FLEET_WINDOW = Duration.ofSeconds(Long.getLong("bench.fleet-seconds", 120));

	private static final String TOKEN = "bench-token";

	/**
	 * Chart labels of the heartbeat ways of scenario 1, in the table's order.
	 */
	static final List<String> SHORT_WAYS = List.of("message", "message (tx)", "table upsert", "Debezium INSERT",
			"UPDATE 1 row", "CREATE/DROP");

	private static final BenchReport report = new BenchReport();

	private static PostgresServer server;

	@BeforeAll
	static void startServer() {
		server = PostgresTestBed.dedicated(Map.of("max_connections", "1200", "max_replication_slots", "256",
				"max_slot_wal_keep_size", "-1"));
	}

	@AfterAll
	static void writeReport() {
		report.write(server.queryForString("postgres", "SHOW server_version"));
		server.close();
	}

	@Test
	@Order(1)
	void walCostOfOneHeartbeat() throws Exception {
		String database = server.createDatabase();
		server.execute(database, "CREATE TABLE slotkeeper_heartbeat (id integer PRIMARY KEY, beat_at timestamptz NOT NULL)",
				"CREATE TABLE debezium_heartbeat (id serial PRIMARY KEY, text varchar(255))",
				"CREATE TABLE one_row (id integer PRIMARY KEY, beat_at timestamptz)", "INSERT INTO one_row VALUES (1, now())");
		Map<String, String> ways = new LinkedHashMap<>();
		ways.put("slot-keeper message, non-transactional", "SELECT pg_logical_emit_message(false, 'slotkeeper_heartbeat', '')");
		ways.put("slot-keeper message, transactional", "SELECT pg_logical_emit_message(true, 'slotkeeper_heartbeat', '')");
		ways.put("slot-keeper table (upsert of one row)", "INSERT INTO slotkeeper_heartbeat (id, beat_at) VALUES (1, now())"
				+ " ON CONFLICT (id) DO UPDATE SET beat_at = EXCLUDED.beat_at");
		ways.put("Debezium heartbeat.action.query INSERT", "INSERT INTO debezium_heartbeat (text) VALUES ('heartbeat')");
		ways.put("UPDATE of one row", "UPDATE one_row SET beat_at = now() WHERE id = 1");
		ways.put("CREATE/DROP table (PeerDB's original)", "CREATE TABLE hb_trick (); DROP TABLE hb_trick");
		int beats = 1000;
		int repetitions = 3;
		List<List<Object>> rows = new ArrayList<>();
		List<Double> medians = new ArrayList<>();
		for (Map.Entry<String, String> way : ways.entrySet()) {
			double[] perBeat = new double[repetitions];
			for (int r = 0; r < repetitions; r++) {
				try (Connection connection = server.connect(database); Statement statement = connection.createStatement()) {
					long start = lsn(statement);
					for (int i = 0; i < beats; i++) {
						statement.execute(way.getValue());
						if (i % 100 == 99) {
							statement.execute("CHECKPOINT");
						}
					}
					perBeat[r] = (lsn(statement) - start) / (double) beats;
				}
			}
			double median = BenchReport.median(perBeat);
			medians.add(median);
			rows.add(List.of(way.getKey(), String.format("%.0f", median), String.format("%.0f–%.0f",
					Arrays.stream(perBeat).min().orElseThrow(), Arrays.stream(perBeat).max().orElseThrow())));
		}
		BenchReport.barChart("wal-per-heartbeat.png", "WAL written per heartbeat (incl. a CHECKPOINT every 100)",
				"bytes per heartbeat", SHORT_WAYS, Map.of("median bytes", medians));
		report.section("## 1. WAL cost of one heartbeat\n\n" + beats + " heartbeats per way, a `CHECKPOINT` after every"
				+ " 100 (so full-page images count), " + repetitions + " repetitions; bytes per heartbeat from the LSN"
				+ " difference (the checkpoints' own records included, equally for every way).\n\n"
				+ BenchReport.table(List.of("way", "bytes per heartbeat (median)", "range"), rows)
				+ "\nThe smallest possible logical-message record, for prefix `slotkeeper_heartbeat` (20 characters + NUL"
				+ " = 21 bytes) and empty content: XLogRecord header 24 bytes + short data header 2 bytes +"
				+ " `xl_logical_message` 24 bytes (dbId 4, transactional 1, padding 3, prefix_size 8, message_size 8)"
				+ " + 21 bytes of prefix = 71 bytes, aligned to 8 = **72 bytes**. A transactional message adds a commit"
				+ " record. Everything above that in the table is the cost of the way (heap tuples, indexes, catalog"
				+ " changes, full-page images after each checkpoint).\n\n![WAL per heartbeat](wal-per-heartbeat.png)\n");
	}

	@Test
	@Order(2)
	void retainedWalUnderABusyNeighbour() throws Exception {
		record Run(String name, String slot, boolean messages, String mode, Duration interval) {
		}
		List<Run> runs = List.of(new Run("no heartbeat", "none", true, null, null),
				new Run("message 1 s, consumer asks for messages", "msg1", true, "message", Duration.ofSeconds(1)),
				new Run("message 10 s, consumer asks for messages", "msg10", true, "message", Duration.ofSeconds(10)),
				new Run("message 60 s, consumer asks for messages", "msg60", true, "message", Duration.ofSeconds(60)),
				new Run("table 1 s, consumer without messages", "tbl1", false, "table", Duration.ofSeconds(1)));
		String busy = server.createDatabase();
		server.execute(busy, "CREATE TABLE load (id bigserial PRIMARY KEY, payload text NOT NULL)");
		List<AutoCloseable> closing = new ArrayList<>();
		List<TargetProperties> targets = new ArrayList<>();
		Map<String, String> databases = new LinkedHashMap<>();
		for (Run run : runs) {
			String database = server.createDatabase();
			databases.put(run.slot(), database);
			server.execute(database, "CREATE TABLE slotkeeper_heartbeat (id integer PRIMARY KEY, beat_at timestamptz NOT NULL)",
					"CREATE TABLE orders (id bigserial PRIMARY KEY)", "CREATE PUBLICATION pub FOR TABLE orders, slotkeeper_heartbeat",
					"SELECT pg_create_logical_replication_slot('" + run.slot() + "', 'pgoutput')");
			if (run.mode() != null) {
				targets.add(target(run.slot(), server, database, "heartbeat.mode", run.mode(), "heartbeat.interval",
						run.interval().toMillis() + "ms"));
			}
		}
		Map<String, double[][]> series = new LinkedHashMap<>();
		Map<String, List<double[]>> samples = new LinkedHashMap<>();
		runs.forEach((run) -> samples.put(run.slot(), new ArrayList<>()));
		ScheduledExecutorService writer = Executors.newSingleThreadScheduledExecutor();
		AtomicLong batches = new AtomicLong();
		try (Engine engine = new Engine(targets)) {
			for (Run run : runs) {
				closing.add(new LogicalConsumer(server, databases.get(run.slot()), run.slot(), "pub", run.messages()));
			}
			await().atMost(Duration.ofSeconds(20)).until(() -> String.valueOf(runs.size()).equals(server.queryForString(
					"postgres", "SELECT count(*) FROM pg_replication_slots WHERE active")));
			long startLsn = Lsn.parse(server.queryForString("postgres", "SELECT pg_current_wal_lsn()"));
			long start = System.nanoTime();
			// About 5 MB/s: 400 rows of 1.3 KB every 100 ms; the table is emptied every minute to bound the disk.
			writer.scheduleAtFixedRate(() -> server.execute(busy, (batches.incrementAndGet() % 600 == 0)
					? "TRUNCATE load" : "INSERT INTO load (payload) SELECT repeat(md5(random()::text), 40) FROM generate_series(1, 400)"),
					0, 100, TimeUnit.MILLISECONDS);
			while (System.nanoTime() - start < BUSY_WINDOW.toNanos()) {
				double seconds = (System.nanoTime() - start) / 1e9;
				for (Run run : runs) {
					samples.get(run.slot()).add(new double[] { seconds, retainedMib(run.slot()) });
				}
				await().pollDelay(Duration.ofSeconds(5)).atMost(Duration.ofSeconds(6)).until(() -> true);
			}
			writer.shutdownNow();
			writer.awaitTermination(10, TimeUnit.SECONDS);
			double elapsed = (System.nanoTime() - start) / 1e9;
			double rate = (Lsn.parse(server.queryForString("postgres", "SELECT pg_current_wal_lsn()")) - startLsn) / elapsed;
			List<List<Object>> rows = new ArrayList<>();
			for (Run run : runs) {
				List<double[]> points = samples.get(run.slot());
				series.put(run.name(), new double[][] { points.stream().mapToDouble((p) -> p[0]).toArray(),
						points.stream().mapToDouble((p) -> p[1]).toArray() });
				double steadyMax = points.stream().filter((p) -> p[0] >= elapsed / 2).mapToDouble((p) -> p[1]).max().orElse(0);
				String bound = (run.interval() == null) ? "—" : String.format("%.0f", (rate * Math.max(run.interval().toSeconds(), 15) + 16 * 1048576.0) / 1048576);
				rows.add(List.of(run.name(), String.format("%.0f", steadyMax), bound,
						String.format("%.0f", points.get(points.size() - 1)[1])));
			}
			BenchReport.xyChart("retained-wal.png", "Retained WAL of an idle database's slot while a neighbour writes",
					"seconds", "retained WAL (MiB)", series);
			report.section("## 2. Retained WAL under a busy neighbour\n\nOne idle database per run, each with a pgoutput"
					+ " slot and a consumer that confirms only what it receives (PgJDBC, automatic flush off); another"
					+ " database writing " + String.format("%.1f", rate / 1048576) + " MB/s (measured) for "
					+ BUSY_WINDOW.toMinutes() + " minutes; all runs side by side on one server, sampled every 5 s. No"
					+ " forced checkpoints: the background writer's running-transactions records (at most every 15 s)"
					+ " are what let slots advance. Bound = rate × max(interval, 15 s) + 16 MB.\n\n"
					+ BenchReport.table(List.of("run", "steady-state max (MiB, 2nd half)", "bound (MiB)", "at the end (MiB)"), rows)
					+ "\n![Retained WAL](retained-wal.png)\n");
		}
		finally {
			writer.shutdownNow();
			for (AutoCloseable each : closing) {
				each.close();
			}
		}
	}

	@Test
	@Order(3)
	void fleetScale() throws Exception {
		List<String> databases = new ArrayList<>();
		for (int i = 0; i < 100; i++) {
			databases.add(server.createDatabase());
		}
		List<List<Object>> rows = new ArrayList<>();
		List<String> categories = new ArrayList<>();
		List<Double> p50s = new ArrayList<>();
		List<Double> p99s = new ArrayList<>();
		int largestUnder250 = 0;
		for (int count : new int[] { 10, 100, 1000 }) {
			List<TargetProperties> targets = new ArrayList<>();
			for (int i = 0; i < count; i++) {
				targets.add(target("fleet-" + i, server, databases.get(i % databases.size()), "heartbeat.interval", "1s"));
			}
			java.lang.management.ThreadMXBean threads = java.lang.management.ManagementFactory.getThreadMXBean();
			threads.resetPeakThreadCount();
			long cpuBefore = BenchReport.cpuNanos();
			long start = System.nanoTime();
			Histogram drift = new Histogram(60_000, 3);
			long beats = 0;
			int connections;
			try (Engine engine = new Engine(targets)) {
				await().pollDelay(FLEET_WINDOW).atMost(FLEET_WINDOW.plusSeconds(5)).until(() -> true);
				connections = Integer.parseInt(server.queryForString("postgres",
						"SELECT count(*) FROM pg_stat_activity WHERE application_name = 'slot-keeper'"));
				for (TargetHeartbeat heartbeat : engine.heartbeats.all()) {
					List<BeatLog.Beat> written = heartbeat.target().beats().list();
					beats += heartbeat.status().emissions();
					for (int i = 1; i < written.size(); i++) {
						long gap = Duration.between(written.get(i - 1).at(), written.get(i).at()).toMillis();
						drift.recordValue(Math.min(59_999, Math.abs(gap - 1000)));
					}
				}
			}
			double seconds = (System.nanoTime() - start) / 1e9;
			double cpu = (BenchReport.cpuNanos() - cpuBefore) / 1e9;
			long p99 = drift.getValueAtPercentile(99);
			if (p99 < 250) {
				largestUnder250 = count;
			}
			categories.add(count + " targets");
			p50s.add((double) drift.getValueAtPercentile(50));
			p99s.add((double) p99);
			rows.add(List.of(count, String.format("%.0f", beats / seconds), drift.getValueAtPercentile(50),
					p99, drift.getMaxValue(), String.format("%.1f", cpu), BenchReport.rssKib(ProcessHandle.current().pid()) >> 10,
					threads.getPeakThreadCount(), connections));
		}
		BenchReport.barChart("fleet-drift.png", "Schedule drift at a 1 s interval", "ms", categories,
				new LinkedHashMap<>(Map.of("p50", p50s, "p99", p99s)));
		report.section("## 3. Fleet scale\n\nN targets (spread over 100 databases of one server, `max_connections`"
				+ " 1200) at a 1 s interval on one instance for " + FLEET_WINDOW.toSeconds() + " s each. Drift = |gap"
				+ " between two beats of a target − 1 s|. CPU is the JVM's process CPU time during the run, RSS the"
				+ " JVM's at its end (it includes the benchmark itself), threads the JVM's peak.\n\n"
				+ BenchReport.table(List.of("targets", "beats/s", "drift p50 (ms)", "drift p99 (ms)", "drift max (ms)",
						"CPU s", "RSS MiB", "threads (peak)", "connections"), rows)
				+ "\nLargest target count with drift p99 under 250 ms: **" + largestUnder250 + "**. One connection per"
				+ " target is the design (a session-level advisory lock decides ownership on it); the timer thread only"
				+ " keeps time and attempts run on pooled workers, so threads follow the attempts in flight, not the"
				+ " targets.\n\n![Fleet drift](fleet-drift.png)\n");
	}

	@Test
	@Order(4)
	void slotListingApi() throws Exception {
		String database = server.createDatabase();
		List<List<Object>> rows = new ArrayList<>();
		try (ConfigurableApplicationContext app = app(database, Map.of())) {
			HttpClient http = HttpClient.newHttpClient();
			HttpRequest request = HttpRequest.newBuilder(URI.create(base(app) + "/api/v1/targets/bench/slots"))
				.header("Authorization", "Bearer " + TOKEN).build();
			int made = 0;
			for (int slots : new int[] { 10, 100 }) {
				for (; made < slots; made++) {
					server.execute(database, "SELECT pg_create_logical_replication_slot('api_" + made + "', 'pgoutput')");
				}
				for (int i = 0; i < 300; i++) {
					http.send(request, HttpResponse.BodyHandlers.discarding());
				}
				ExecutorService clients = Executors.newFixedThreadPool(32);
				long until = System.nanoTime() + Duration.ofSeconds(30).toNanos();
				long start = System.nanoTime();
				List<Future<Histogram>> futures = new ArrayList<>();
				for (int c = 0; c < 32; c++) {
					futures.add(clients.submit(() -> {
						Histogram latency = new Histogram(60_000_000, 3);
						while (System.nanoTime() < until) {
							long t = System.nanoTime();
							http.send(request, HttpResponse.BodyHandlers.discarding());
							latency.recordValue(Math.min(59_999_999, (System.nanoTime() - t) / 1000));
						}
						return latency;
					}));
				}
				Histogram all = new Histogram(60_000_000, 3);
				for (Future<Histogram> future : futures) {
					all.add(future.get());
				}
				double seconds = (System.nanoTime() - start) / 1e9;
				clients.shutdown();
				double[] sql = rawListingMicros(database, 1000);
				rows.add(List.of(slots, String.format("%.1f", all.getValueAtPercentile(50) / 1000.0),
						String.format("%.1f", all.getValueAtPercentile(99) / 1000.0), String.format("%.1f", all.getMaxValue() / 1000.0),
						String.format("%.0f", all.getTotalCount() / seconds), String.format("%.2f", BenchReport.median(sql) / 1000.0),
						String.format("%.0f", (all.getValueAtPercentile(50) / 1000.0) / (BenchReport.median(sql) / 1000.0))));
			}
		}
		report.section("## 4. API: `GET /api/v1/targets/{t}/slots`\n\n32 concurrent clients for 30 s (JDK HTTP client in"
				+ " the same JVM, loopback), next to the listing query alone on one connection (1,000 runs, median) in"
				+ " the same run.\n\n" + BenchReport.table(List.of("slots", "p50 ms", "p99 ms", "max ms", "requests/s",
						"query alone p50 ms", "p50 ÷ query"), rows)
				+ "\nThe query is a small part of a request: HTTP, security, JSON and 32 client threads share the"
				+ " cores with Tomcat and PostgreSQL; under load the latency is queueing.\n");
	}

	@Test
	@Order(5)
	void recoveryFromALostSlot() throws Exception {
		try (PostgresServer lossy = PostgresTestBed.dedicated(Map.of("max_slot_wal_keep_size", "1MB"));
				ConnectStub connect = new ConnectStub()) {
			lossy.execute("postgres", "CREATE DATABASE app");
			lossy.execute("app", "CREATE TABLE orders (id bigserial PRIMARY KEY, item text)",
					"SELECT pg_create_logical_replication_slot('healed', 'pgoutput')");
			Map<String, String> healing = Map.of("slotkeeper.targets[0].slots-poll-interval", "1s",
					"slotkeeper.targets[0].slots[0].name", "healed", "slotkeeper.targets[0].slots[0].on-lost", "recreate",
					"slotkeeper.targets[0].slots[0].max-recreations-per-hour", "100",
					"slotkeeper.targets[0].slots[0].connector.url", connect.url(),
					"slotkeeper.targets[0].slots[0].connector.name", "bench-connector");
			double[] millis = new double[20];
			try (ConfigurableApplicationContext app = appOn(lossy, "app", healing)) {
				for (int run = 0; run < millis.length; run++) {
					int before = connect.changes().size();
					await().atMost(Duration.ofSeconds(10)).until(() -> "reserved".equals(lossy.queryForString("postgres",
							"SELECT wal_status FROM pg_replication_slots WHERE slot_name = 'healed'")));
					SlotRecipes.lose(lossy, "app", "healed");
					long lost = System.nanoTime();
					await().atMost(Duration.ofSeconds(10)).until(() -> connect.changes().size() > before);
					millis[run] = (System.nanoTime() - lost) / 1e6;
				}
			}
			Arrays.sort(millis);
			report.section("## 5. Recovery: lost slot → recreate → connector restart\n\nHealing on"
					+ " (`on-lost: recreate`), slots polled every 1 s, a local HTTP stand-in for Kafka Connect; the slot"
					+ " is lost with the facts page's recipe (`max_slot_wal_keep_size=1MB`, switch, checkpoint), 20 runs."
					+ " Time from the loss to the connector restart call: **p50 " + String.format("%.0f", millis[10])
					+ " ms, max " + String.format("%.0f", millis[19]) + " ms** (min " + String.format("%.0f", millis[0])
					+ " ms) — bounded by the poll interval plus the recreate (a few ms) and the HTTP call.\n");
		}
	}

	@Test
	@Order(6)
	void startUpAndFootprint() throws Exception {
		List<List<Object>> rows = new ArrayList<>();
		List<String> databases = new ArrayList<>();
		for (int i = 0; i < 10; i++) {
			databases.add(server.createDatabase());
		}
		for (int count : new int[] { 0, 10, 1000 }) {
			double[] ready = new double[3];
			double[] rss = new double[3];
			for (int r = 0; r < 3; r++) {
				Path config = Files.createTempDirectory("bench-config");
				StringBuilder yaml = new StringBuilder("slotkeeper:\n  targets:\n");
				for (int i = 0; i < count; i++) {
					yaml.append("    - name: t").append(i).append("\n      url: ")
						.append(server.jdbcUrl(databases.get(i % databases.size()))).append("\n      username: ")
						.append(server.user()).append("\n      heartbeat: { interval: 30s }\n");
				}
				if (count == 0) {
					yaml.append("    []\n");
				}
				Files.writeString(config.resolve("application.yaml"), yaml.toString().replace("targets:\n    []", "targets: []"));
				int port = freePort();
				long start = System.nanoTime();
				Process process = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
						"-cp", System.getProperty("surefire.test.class.path", System.getProperty("java.class.path")),
						SlotKeeperApplication.class.getName(), "--server.port=" + port,
						"--spring.config.additional-location=file:" + config + "/").redirectErrorStream(true)
					.redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
				try {
					HttpClient http = HttpClient.newHttpClient();
					HttpRequest readiness = HttpRequest.newBuilder(URI.create("http://localhost:" + port + "/actuator/health/readiness")).build();
					await().pollInterval(Duration.ofMillis(50)).atMost(Duration.ofSeconds(60)).until(() -> {
						try {
							return http.send(readiness, HttpResponse.BodyHandlers.discarding()).statusCode() == 200;
						}
						catch (IOException ex) {
							return false;
						}
					});
					ready[r] = (System.nanoTime() - start) / 1e9;
					if (count > 0) {
						await().atMost(Duration.ofSeconds(60)).until(() -> Integer.parseInt(server.queryForString("postgres",
								"SELECT count(*) FROM pg_stat_activity WHERE application_name = 'slot-keeper'")) >= count);
					}
					rss[r] = BenchReport.rssKib(process.pid()) / 1024.0;
				}
				finally {
					process.destroy();
					process.waitFor(30, TimeUnit.SECONDS);
				}
			}
			rows.add(List.of(count, String.format("%.1f", BenchReport.median(ready)), String.format("%.0f", BenchReport.median(rss))));
		}
		report.section("## 6. Start-up and footprint\n\nA separate JVM per start (Java defaults: no heap limit set),"
				+ " time from process start to `/actuator/health/readiness` 200, RSS once every target has its heartbeat"
				+ " session; medians of 3 starts.\n\n" + BenchReport.table(List.of("targets", "time to ready (s)", "RSS (MiB)"), rows));
	}

	private static ConfigurableApplicationContext app(String database, Map<String, String> extra) {
		return appOn(server, database, extra);
	}

	private static ConfigurableApplicationContext appOn(PostgresServer postgres, String database, Map<String, String> extra) {
		List<String> args = new ArrayList<>(List.of("--server.port=0", "--slotkeeper.targets[0].name=bench",
				"--slotkeeper.targets[0].url=" + postgres.jdbcUrl(database), "--slotkeeper.targets[0].username=" + postgres.user(),
				"--slotkeeper.api.tokens[0].name=bench", "--slotkeeper.api.tokens[0].role=operator",
				"--slotkeeper.api.tokens[0].sha256=" + TokenHashes.sha256Hex(TOKEN), "--logging.level.root=WARN"));
		extra.forEach((key, value) -> args.add("--" + key + "=" + value));
		return new SpringApplicationBuilder(SlotKeeperApplication.class).run(args.toArray(String[]::new));
	}

	private static String base(ConfigurableApplicationContext app) {
		return "http://localhost:" + app.getEnvironment().getProperty("local.server.port");
	}

	private static double[] rawListingMicros(String database, int runs) throws Exception {
		double[] micros = new double[runs];
		try (Connection connection = server.connect(database);
				PreparedStatement statement = connection.prepareStatement(io.slotkeeper.slot.SlotListing.sql(
						connection.getMetaData().getDatabaseMajorVersion()))) {
			for (int i = 0; i < runs; i++) {
				long t = System.nanoTime();
				try (ResultSet result = statement.executeQuery()) {
					while (result.next()) {
						result.getString(1);
					}
				}
				micros[i] = (System.nanoTime() - t) / 1000.0;
			}
		}
		return micros;
	}

	private static long lsn(Statement statement) throws Exception {
		try (ResultSet result = statement.executeQuery("SELECT pg_current_wal_lsn()")) {
			result.next();
			return Lsn.parse(result.getString(1));
		}
	}

	private static double retainedMib(String slot) {
		String bytes = server.queryForString("postgres",
				"SELECT pg_current_wal_lsn() - restart_lsn FROM pg_replication_slots WHERE slot_name = '" + slot + "'");
		return (bytes != null) ? Double.parseDouble(bytes) / 1048576 : 0;
	}

	private static int freePort() throws IOException {
		try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
			return socket.getLocalPort();
		}
	}

	/**
	 * The heartbeat engine as the application wires it.
	 */
	private static final class Engine implements AutoCloseable {

		final Fleet fleet;

		final Heartbeats heartbeats;

		final HeartbeatScheduler scheduler;

		Engine(List<TargetProperties> targets) {
			NodeConnector connector = new NodeConnector();
			this.fleet = new Fleet(targets, connector);
			this.heartbeats = new Heartbeats(this.fleet, connector, new SimpleMeterRegistry(), Clock.systemUTC());
			this.scheduler = new HeartbeatScheduler(this.heartbeats.all().stream().toList(), this.heartbeats.longestAttempt());
			this.scheduler.start();
		}

		@Override
		public void close() {
			this.scheduler.stop();
			this.heartbeats.close();
			this.fleet.close();
		}

	}

}
