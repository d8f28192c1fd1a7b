package io.slotkeeper.bench;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;

import org.awaitility.core.ConditionTimeoutException;

import io.slotkeeper.testbed.PostgresServer;
import io.slotkeeper.testbed.PostgresTestBed;

import static org.awaitility.Awaitility.await;

/**
 * One server of many databases kept two ways by the whole application, side by side: one
 * {@code targets} entry per database, or one {@code servers} entry that finds them. Each
 * database holds a logical slot. Measured per way, once every database is UP: the
 * server's sessions of slot-keeper, the application's threads, heap and RSS, beats and
 * reads of {@code pg_replication_slots} per second over the window, and how long a new
 * database's slot waits for its first beat.
 */
final class ServerEntryBench {

	private static final String LISTING = "%FROM pg_catalog.pg_replication_slots ORDER BY slot_name%";

	private ServerEntryBench() {
	}

	record Figures(double allUp, int sessions, int threads, long heapMib, long rssMib, double beatsPerSecond,
			double readsPerSecond, String newSlotFirstBeat) {

		// The application ended before it was measured: what its log said last.
		static Figures died(String why) {
			return new Figures(Double.NaN, 0, 0, 0, 0, 0, 0, why);
		}

	}

	static void run(BenchReport report) throws Exception {
		int count = Integer.getInteger("bench.server-entry-databases", 200);
		Duration window = Duration.ofSeconds(Long.getLong("bench.server-entry-seconds", 120));
		try (PostgresServer server = PostgresTestBed
			.dedicated(Map.of("max_connections", "1000", "max_replication_slots", String.valueOf(count + 10),
					"shared_preload_libraries", "pg_stat_statements"))) {
			server.execute("postgres", "CREATE EXTENSION pg_stat_statements");
			List<String> databases = new ArrayList<>();
			for (int i = 0; i < count; i++) {
				String database = "kept" + i;
				server.execute("postgres", "CREATE DATABASE " + database);
				server.execute(database,
						"SELECT pg_create_logical_replication_slot('cdc_" + database + "', 'pgoutput')");
				databases.add(database);
			}
			Figures targets = run(server, targetsYaml(server, databases), count, window, false);
			Figures servers = run(server, serversYaml(server, count), count, window, true);
			List<List<Object>> rows = List.of(row(count + " `targets` entries", targets),
					row("1 `servers` entry", servers));
			report.section("## 9. One server of many databases: a server entry against a target per database\n\n"
					+ count
					+ " databases of one PostgreSQL server, each with a logical slot, kept by the application as"
					+ " it ships (a JVM of its own, `" + StartUpBench.Dockerfile.read().chartHeap()
					+ "`), heartbeat every 10 s, slots read every 30 s; measured" + " over " + window.toSeconds()
					+ " s once every database was UP. *Reads/s*: calls of the slot"
					+ " listing on the server (`pg_stat_statements`). *New slot*: a database created with a slot while"
					+ " the application runs, until its first beat. A target configured per database reads, lists and"
					+ " exports every slot of its server (its own and the other databases'), so that N targets on one"
					+ " server of N slots keep N² slot series; a server entry deals each database its own.\n\n"
					+ BenchReport.table(List.of("kept by", "all UP (s)", "sessions", "threads", "heap (MiB)",
							"RSS (MiB)", "beats/s", "slot reads/s", "new slot → first beat"), rows));
		}
	}

	private static List<Object> row(String name, Figures f) {
		if (Double.isNaN(f.allUp())) {
			return List.of(name, "—", "—", "—", "—", "—", "—", "—", f.newSlotFirstBeat());
		}
		return List.of(name, String.format("%.1f", f.allUp()), f.sessions(), f.threads(), f.heapMib(), f.rssMib(),
				String.format("%.1f", f.beatsPerSecond()), String.format("%.2f", f.readsPerSecond()),
				f.newSlotFirstBeat());
	}

	private static String targetsYaml(PostgresServer server, List<String> databases) {
		StringBuilder yaml = new StringBuilder("logging.level.root: WARN\nslotkeeper:\n  targets:\n");
		for (String database : databases) {
			yaml.append("    - name: ")
				.append(database)
				.append("\n      url: ")
				.append(server.jdbcUrl(database))
				.append("\n      username: ")
				.append(server.user())
				.append('\n');
		}
		return yaml.toString();
	}

	private static String serversYaml(PostgresServer server, int count) {
		return "logging.level.root: WARN\nslotkeeper:\n  servers:\n    - name: main\n      url: "
				+ server.jdbcUrl("postgres") + "\n      username: " + server.user() + "\n      max-sessions: "
				+ (count + 20) + "\n";
	}

	private static Figures run(PostgresServer server, String yaml, int count, Duration window, boolean discovers)
			throws Exception {
		Path work = Files.createTempDirectory("bench-server-entry");
		Path config = work.resolve("slot-keeper.yaml");
		Files.writeString(config, yaml);
		int port = BenchSupport.freePort();
		long start = System.nanoTime();
		Process process = FleetRunBench.launch(work, StartUpBench.classPath(work), config, port);
		HttpClient http = HttpClient.newHttpClient();
		String base = "http://localhost:" + port;
		try {
			FleetRunBench.awaitReady(http, base);
			try {
				await().pollInterval(Duration.ofSeconds(1))
					.atMost(Duration.ofMinutes(3))
					.until(() -> !process.isAlive() || upOrNone(http, base) == count);
			}
			catch (ConditionTimeoutException ex) {
				// Not all UP in time: what the application said last is the figure.
			}
			if (!process.isAlive() || upOrNone(http, base) < count) {
				return ended(work, discovers, process.isAlive() ? "not all UP in 3 min, last logged: " : "");
			}
			double allUp = FleetRunBench.seconds(start);
			try {
				return measure(server, process, http, base, allUp, count, window, discovers, work);
			}
			catch (IOException ex) {
				// It answered no more during the window: what it logged last says why.
				return ended(work, discovers, String.format("all UP at %.0f s, then ", allUp));
			}
		}
		finally {
			process.destroy();
			process.waitFor(30, TimeUnit.SECONDS);
			await().atMost(Duration.ofSeconds(60)).until(() -> BenchSupport.sessions(server) == 0);
		}
	}

	private static Figures ended(Path work, boolean discovers, String prefix) throws IOException {
		List<String> log = Files.readAllLines(work.resolve("application.log"));
		String last = log.isEmpty() ? "no output" : log.get(log.size() - 1).replaceAll("^.*?\\] [^:]+: ", "");
		System.out.println((discovers ? "servers" : "targets") + " -> " + prefix + last + " (log " + work + ")");
		return Figures.died(prefix + last);
	}

	private static Figures measure(PostgresServer server, Process process, HttpClient http, String base, double allUp,
			int count, Duration window, boolean discovers, Path work) throws Exception {
		Map<String, Double> before = FleetRunBench.metrics(http, base);
		long reads0 = reads(server);
		long windowStart = System.nanoTime();
		BenchSupport.idle(window);
		double elapsed = FleetRunBench.seconds(windowStart);
		double beats = FleetRunBench.sum(FleetRunBench.metrics(http, base), before,
				"slotkeeper_heartbeat_emissions_total", (t) -> true);
		double reads = (reads(server) - reads0) / elapsed;
		int sessions = BenchSupport.sessions(server);
		int threads = BenchSupport.threadsOf(process.pid());
		long heap = heapBytes(http, base) >> 20;
		long rss = BenchReport.rssKib(process.pid()) >> 10;
		String newSlot = "not kept without a configuration change";
		if (discovers) {
			server.execute("postgres", "CREATE DATABASE late");
			server.execute("late", "SELECT pg_create_logical_replication_slot('cdc_late', 'pgoutput')");
			long created = System.nanoTime();
			await().pollInterval(Duration.ofMillis(200))
				.atMost(Duration.ofMinutes(2))
				.until(() -> FleetRunBench.up(http, base, Set.of()) == count + 1);
			newSlot = String.format("%.1f s", FleetRunBench.seconds(created));
		}
		Figures figures = new Figures(allUp, sessions, threads, heap, rss, beats / elapsed, reads, newSlot);
		System.out.println((discovers ? "servers" : "targets") + " -> " + figures + " (log " + work + ")");
		return figures;
	}

	private static int upOrNone(HttpClient http, String base) {
		try {
			return FleetRunBench.up(http, base, Set.of());
		}
		catch (Exception ex) {
			return 0;
		}
	}

	private static long reads(PostgresServer server) {
		return Long.parseLong(server.queryForString("postgres",
				"SELECT coalesce(sum(calls), 0) FROM pg_stat_statements WHERE query LIKE '" + LISTING + "'"));
	}

	private static long heapBytes(HttpClient http, String base) throws IOException, InterruptedException {
		String body = http
			.send(HttpRequest.newBuilder(URI.create(base + "/actuator/prometheus")).build(),
					HttpResponse.BodyHandlers.ofString())
			.body();
		return (long) body.lines()
			.filter((line) -> line.startsWith("jvm_memory_used_bytes{area=\"heap\""))
			.mapToDouble((line) -> Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1)))
			.sum();
	}

}
