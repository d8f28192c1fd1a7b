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
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import java.util.stream.Stream;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import io.slotkeeper.SlotKeeperApplication;
import io.slotkeeper.testbed.PostgresServer;
import io.slotkeeper.testbed.SilentServer;

import static org.awaitility.Awaitility.await;

/**
 * A fleet of targets run by the whole application, as it ships: the jar in a JVM of its
 * own with the image's JVM options and the heap of the chart's memory limit, configured
 * from a YAML file, for minutes. Counts what an operator sees (targets UP in the
 * {@code heartbeat} health, beats and connection attempts from
 * {@code /actuator/prometheus}) and what the server sees (idle-session terminations in
 * its log, sessions held, its CPU).
 */
final class FleetRunBench {

	private static final Duration SAMPLE = Duration.ofSeconds(5);

	private static final Duration SETTLE = Duration.ofSeconds(60);

	// How long the bench keeps looking for all targets UP, so that a fleet slower than
	// the goal gets a figure too.
	private static final Duration SETTLE_LIMIT = Duration.ofSeconds(180);

	private static final Pattern METRIC = Pattern
		.compile("^(slotkeeper_heartbeat_\\w+)\\{[^}]*target=\"([^\"]+)\"[^}]*} (\\S+)");

	private static final JsonMapper json = JsonMapper.builder().build();

	private FleetRunBench() {
	}

	/**
	 * One run: how many targets, at which interval, and how many of them hang (a host
	 * that accepts and never answers).
	 */
	record Scenario(String name, int targets, Duration interval, int hung) {

		int live() {
			return this.targets - this.hung;
		}

	}

	/**
	 * What one run measured.
	 */
	record Figures(double ready, Double allUp, int upAtEnd, int minUpAfterSettle, double beatsPerSecond,
			double expectedBeatsPerSecond, long idleKillsFirstMinute, long idleKillsAfter, long reconnectsAfter,
			double appCpuPer1000, double serverCpuPer1000, int sessions, int threads, long rssMib) {
	}

	static void run(BenchReport report, PostgresServer server, Path serverLog, List<String> databases)
			throws Exception {
		Duration window = Duration.ofMinutes(Long.getLong("bench.fleet-run-minutes", 10));
		int targets = Integer.getInteger("bench.fleet-run-targets", 1000);
		List<Scenario> scenarios = List.of(new Scenario("default interval", targets, Duration.ofSeconds(10), 0),
				new Scenario("1 s interval", targets, Duration.ofSeconds(1), 0),
				new Scenario("10 % hung", targets, Duration.ofSeconds(10), targets / 10));
		String only = System.getProperty("bench.fleet-run-only");
		List<List<Object>> rows = new ArrayList<>();
		for (Scenario scenario : scenarios) {
			if (only != null && !scenario.name().startsWith(only)) {
				continue;
			}
			Figures f = run(server, serverLog, databases, scenario, window);
			rows.add(List.of(scenario.name(), scenario.targets() + " (" + scenario.hung() + " hung)",
					scenario.interval().toSeconds() + " s", window.toMinutes() + " min",
					String.format("%.1f", f.ready()),
					(f.allUp() != null) ? String.format("%.0f", f.allUp()) : "**never**",
					f.minUpAfterSettle() + " / " + scenario.live(), f.upAtEnd() + " / " + scenario.live(),
					String.format("%.1f of %.1f", f.beatsPerSecond(), f.expectedBeatsPerSecond()),
					f.idleKillsFirstMinute() + " / " + f.idleKillsAfter(), f.reconnectsAfter(),
					String.format("%.2f / %.2f", f.appCpuPer1000(), f.serverCpuPer1000()), f.sessions(), f.threads(),
					f.rssMib()));
		}
		report.section(
				"## 7. A fleet run by the whole application\n\nThe application as it ships, in a JVM of its own: the"
						+ " image's JVM options and the heap of the chart's 512 Mi limit (`"
						+ StartUpBench.Dockerfile.read().chartHeap() + "`), configured from a YAML file;" + " "
						+ targets + " targets over " + databases.size()
						+ " databases of one PostgreSQL server on the same"
						+ " machine, no consumers; hung targets point at a port that accepts and never answers. *All UP*: seconds"
						+ " from process start until every live target's `heartbeat` health is UP (looked for up to "
						+ SETTLE_LIMIT.toSeconds() + " s; the goal is " + SETTLE.toSeconds()
						+ " s). Then the window's minutes of running (" + window.toMinutes() + " in this run), sampled"
						+ " every " + SAMPLE.toSeconds()
						+ " s: the fewest live targets UP, beats per second (from `slotkeeper_heartbeat_emissions_total`) against"
						+ " live targets ÷ interval, the server's idle-session terminations in its log (until all UP or the"
						+ " first minute, whichever is later / after),"
						+ " connection attempts to live targets after that (reconnects), CPU seconds of the"
						+ " application and of the server per 1,000 beats, slot-keeper's sessions on the server, the"
						+ " application's threads and RSS at the end.\n\n"
						+ BenchReport.table(
								List.of("run", "targets", "interval", "window", "ready (s)", "all UP (s)", "fewest UP",
										"UP at end", "beats/s", "idle kills", "reconnects",
										"CPU s / 1,000 beats (app / server)", "sessions", "threads", "RSS (MiB)"),
								rows));
	}

	static Figures run(PostgresServer server, Path serverLog, List<String> databases, Scenario scenario,
			Duration window) throws Exception {
		Path work = Files.createTempDirectory("bench-fleet-run");
		String classPath = StartUpBench.classPath(work);
		try (SilentServer silent = new SilentServer()) {
			Path config = config(work, server, databases, scenario, silent.port());
			Set<String> hung = IntStream.range(0, scenario.hung()).mapToObj((i) -> "t" + i).collect(Collectors.toSet());
			int port = BenchSupport.freePort();
			Path log = work.resolve("application.log");
			long kills0 = idleKills(serverLog);
			long serverCpu0 = serverCpuTicks(server);
			long start = System.nanoTime();
			Process process = launch(work, classPath, config, port);
			HttpClient http = HttpClient.newHttpClient();
			String base = "http://localhost:" + port;
			try {
				awaitReady(http, base);
				double ready = seconds(start);
				Double allUp = null;
				while (seconds(start) < SETTLE_LIMIT.toSeconds()) {
					int up = up(http, base, hung);
					diagnose(scenario, start, up, server, process);
					if (up == scenario.live()) {
						allUp = seconds(start);
						break;
					}
					BenchSupport.idle(SAMPLE);
				}
				BenchSupport.idle(Duration.ofSeconds(Math.max(0, SETTLE.toSeconds() - (long) seconds(start))));
				long killsFirstMinute = idleKills(serverLog) - kills0;
				Map<String, Double> before = metrics(http, base);
				long metricsAt = System.nanoTime();
				long appCpu0 = StartUpBench.cpuTicks(process.pid());
				long serverCpu1 = serverCpuTicks(server);
				long[] split1 = serverCpuSplit(server);
				long windowStart = System.nanoTime();
				int fewest = scenario.live();
				int up = 0;
				while (System.nanoTime() - windowStart < window.toNanos()) {
					BenchSupport.idle(SAMPLE);
					up = up(http, base, hung);
					fewest = Math.min(fewest, up);
					diagnose(scenario, start, up, server, process);
				}
				Map<String, Double> after = metrics(http, base);
				double elapsed = seconds(metricsAt);
				double beats = sum(after, before, "slotkeeper_heartbeat_emissions_total", (t) -> true);
				double reconnects = sum(after, before, "slotkeeper_heartbeat_connection_attempts_total",
						(t) -> !hung.contains(t));
				double appCpu = (StartUpBench.cpuTicks(process.pid()) - appCpu0) / 100.0;
				double serverCpu = (serverCpuTicks(server) - serverCpu1) / 100.0;
				Figures figures = new Figures(ready, allUp, up, fewest, beats / elapsed,
						scenario.live() / (scenario.interval().toMillis() / 1000.0), killsFirstMinute,
						idleKills(serverLog) - kills0 - killsFirstMinute, (long) reconnects, appCpu * 1000 / beats,
						serverCpu * 1000 / beats, BenchSupport.sessions(server), BenchSupport.threadsOf(process.pid()),
						BenchReport.rssKib(process.pid()) >> 10);
				if (Boolean.getBoolean("bench.fleet-run-diagnose")) {
					System.out.println(server.queryForString("postgres", "SELECT string_agg(round(t) || ' ms ' || c"
							+ " || ' calls ' || left(regexp_replace(q, '\\s+', ' ', 'g'), 90), E'\\n') FROM (SELECT"
							+ " sum(total_exec_time) t, sum(calls) c, query q FROM pg_stat_statements GROUP BY query"
							+ " ORDER BY 1 DESC LIMIT 20) x"));
					long[] split2 = serverCpuSplit(server);
					System.out.printf("server CPU in the window: user %.1f s, system (kernel) %.1f s%n",
							(split2[0] - split1[0]) / 100.0, (split2[1] - split1[1]) / 100.0);
					System.out.println(server.queryForString("postgres", "SELECT 'sessions ' || sum(sessions) || ',"
							+ " killed/fatal ' || sum(sessions_fatal) || ', commits ' || sum(xact_commit) || ', session"
							+ " time ' || round(sum(active_time)) || ' ms active' FROM pg_stat_database"));
				}
				System.out.println(scenario + " -> " + figures + " (application log " + log + ", server CPU during"
						+ " start-up " + (serverCpu1 - serverCpu0) / 100.0 + " s)");
				return figures;
			}
			finally {
				process.destroy();
				process.waitFor(30, TimeUnit.SECONDS);
				await().atMost(Duration.ofSeconds(60)).until(() -> BenchSupport.sessions(server) == 0);
			}
		}
	}

	/**
	 * Starts the application as it ships, in a JVM of its own: the image's JVM options,
	 * the heap of the chart's 512 Mi limit, the configuration file given; its output goes
	 * to {@code application.log} in the work directory.
	 */
	static Process launch(Path work, String classPath, Path config, int port) throws IOException {
		List<String> command = new ArrayList<>(List.of(StartUpBench.java()));
		StartUpBench.Dockerfile image = StartUpBench.Dockerfile.read();
		command.addAll(image.runOptions(work.resolve("none.jsa"))
			.stream()
			.filter((option) -> !option.startsWith("-XX:SharedArchiveFile="))
			.toList());
		if (Boolean.getBoolean("bench.fleet-run-diagnose")) {
			command.add("-Xlog:gc:file=" + work.resolve("gc.log"));
		}
		command.addAll(List.of(image.chartHeap(), "-cp", classPath, SlotKeeperApplication.class.getName(),
				"--server.port=" + port, "--spring.config.additional-location=file:" + config));
		ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true)
			.redirectOutput(work.resolve("application.log").toFile());
		builder.environment().putAll(image.nativeEnvironment());
		return builder.start();
	}

	static void awaitReady(HttpClient http, String base) {
		await().pollInterval(Duration.ofMillis(50))
			.atMost(Duration.ofSeconds(120))
			.until(() -> status(http, base + "/actuator/health/readiness") == 200);
	}

	private static Path config(Path work, PostgresServer server, List<String> databases, Scenario scenario,
			int silentPort) throws IOException {
		StringBuilder yaml = new StringBuilder("logging.level.root: WARN\nslotkeeper:\n  targets:\n");
		for (int i = 0; i < scenario.targets(); i++) {
			String database = databases.get(i % databases.size());
			String url = (i < scenario.hung()) ? "jdbc:postgresql://127.0.0.1:" + silentPort + "/" + database
					: server.jdbcUrl(database);
			yaml.append("    - name: t")
				.append(i)
				.append("\n      url: ")
				.append(url)
				.append("\n      username: ")
				.append(server.user())
				.append("\n      heartbeat: { interval: ")
				.append(scenario.interval().toMillis())
				.append("ms }\n")
				.append(System.getProperty("bench.fleet-run-target-extra", ""));
		}
		Path file = work.resolve("targets.yaml");
		Files.writeString(file, yaml);
		return file;
	}

	// Live targets whose heartbeat health is UP.
	static int up(HttpClient http, String base, Set<String> hung) throws Exception {
		// An application short of heap may never answer: the sample fails instead of
		// hanging the run.
		HttpResponse<String> response = http
			.send(HttpRequest.newBuilder(URI.create(base + "/actuator/health/heartbeat"))
				.timeout(Duration.ofSeconds(30))
				.build(), HttpResponse.BodyHandlers.ofString());
		JsonNode components = json.readTree(response.body()).path("components");
		int up = 0;
		for (Map.Entry<String, JsonNode> entry : components.properties()) {
			// Before its first beat a target is UP for three intervals: a target counts
			// once it has written one.
			JsonNode health = entry.getValue();
			if (!hung.contains(entry.getKey()) && "UP".equals(health.path("status").asString())
					&& health.path("details").has("lastSuccessAt")) {
				up++;
			}
		}
		return up;
	}

	static Map<String, Double> metrics(HttpClient http, String base) throws Exception {
		long start = System.nanoTime();
		String body = http
			.send(HttpRequest.newBuilder(URI.create(base + "/actuator/prometheus")).build(),
					HttpResponse.BodyHandlers.ofString())
			.body();
		System.out.printf("/actuator/prometheus answered in %d ms: %d lines, %d KiB%n",
				(System.nanoTime() - start) / 1_000_000, body.lines().count(), body.length() >> 10);
		Map<String, Double> values = new HashMap<>();
		for (String line : body.split("\n")) {
			Matcher matcher = METRIC.matcher(line);
			if (matcher.find()) {
				values.put(matcher.group(1) + " " + matcher.group(2), Double.parseDouble(matcher.group(3)));
			}
		}
		return values;
	}

	static double sum(Map<String, Double> after, Map<String, Double> before, String metric,
			java.util.function.Predicate<String> target) {
		return after.entrySet()
			.stream()
			.filter((e) -> e.getKey().startsWith(metric + " ")
					&& target.test(e.getKey().substring(metric.length() + 1)))
			.mapToDouble((e) -> e.getValue() - before.getOrDefault(e.getKey(), 0.0))
			.sum();
	}

	private static int status(HttpClient http, String url) {
		try {
			return http.send(HttpRequest.newBuilder(URI.create(url)).build(), HttpResponse.BodyHandlers.discarding())
				.statusCode();
		}
		catch (IOException | InterruptedException ex) {
			return 0;
		}
	}

	// Every server log file's lines that say a session idled past idle_session_timeout.
	static long idleKills(Path logDirectory) throws IOException {
		try (Stream<Path> files = Files.list(logDirectory)) {
			long count = 0;
			for (Path file : files.toList()) {
				try (Stream<String> lines = Files.lines(file)) {
					count += lines.filter((line) -> line.contains("idle-session timeout")).count();
				}
			}
			return count;
		}
	}

	// The postmaster's own CPU, its ended children's (reaped) and its live children's.
	private static long serverCpuTicks(PostgresServer server) throws IOException {
		Path data = Path.of(server.queryForString("postgres", "SHOW data_directory"));
		long postmaster = Long.parseLong(Files.readAllLines(data.resolve("postmaster.pid")).get(0).trim());
		long ticks = ticks(postmaster, true);
		for (ProcessHandle child : ProcessHandle.of(postmaster)
			.map(ProcessHandle::children)
			.orElse(Stream.empty())
			.toList()) {
			ticks += ticks(child.pid(), false);
		}
		return ticks;
	}

	// User and system ticks of the server's processes, apart: whether its CPU goes to
	// queries or to the kernel.
	private static long[] serverCpuSplit(PostgresServer server) throws IOException {
		Path data = Path.of(server.queryForString("postgres", "SHOW data_directory"));
		long postmaster = Long.parseLong(Files.readAllLines(data.resolve("postmaster.pid")).get(0).trim());
		long[] split = new long[2];
		Stream
			.concat(Stream.of(postmaster),
					ProcessHandle.of(postmaster)
						.map(ProcessHandle::children)
						.orElse(Stream.empty())
						.map(ProcessHandle::pid))
			.forEach((pid) -> {
				try {
					String[] fields = Files.readString(Path.of("/proc/" + pid + "/stat"))
						.replaceFirst(".*\\) ", "")
						.split(" ");
					boolean postmasterItself = pid == postmaster;
					split[0] += Long.parseLong(fields[11]) + (postmasterItself ? Long.parseLong(fields[13]) : 0);
					split[1] += Long.parseLong(fields[12]) + (postmasterItself ? Long.parseLong(fields[14]) : 0);
				}
				catch (IOException | RuntimeException ex) {
					// A child that ended between listing and reading.
				}
			});
		return split;
	}

	private static long ticks(long pid, boolean withChildren) {
		try {
			String[] fields = Files.readString(Path.of("/proc/" + pid + "/stat")).replaceFirst(".*\\) ", "").split(" ");
			long own = Long.parseLong(fields[11]) + Long.parseLong(fields[12]);
			return withChildren ? own + Long.parseLong(fields[13]) + Long.parseLong(fields[14]) : own;
		}
		catch (IOException | RuntimeException ex) {
			// A child that ended between listing and reading: its time is the
			// postmaster's now.
			return 0;
		}
	}

	static double seconds(long since) {
		return (System.nanoTime() - since) / 1e9;
	}

	// -Dbench.fleet-run-diagnose=true: what the server's sessions of slot-keeper are
	// doing and where the
	// application's heartbeat threads are, at each sample.
	private static void diagnose(Scenario scenario, long start, int up, PostgresServer server, Process process)
			throws Exception {
		System.out.printf("[%s] %.0f s: %d of %d UP, %d sessions%n", scenario.name(), seconds(start), up,
				scenario.live(), BenchSupport.sessions(server));
		if (!Boolean.getBoolean("bench.fleet-run-diagnose")) {
			return;
		}
		System.out.println(server.queryForString("postgres", "SELECT string_agg(n || ' ' || s, E'\\n') FROM (SELECT"
				+ " count(*) n, coalesce(state, '-') || ' ' || coalesce(wait_event, '-') || ' ' || left(query, 70) s"
				+ " FROM pg_stat_activity WHERE application_name = 'slot-keeper' GROUP BY 2 ORDER BY 1 DESC LIMIT 12) x"));
		Path jstack = Path.of(System.getProperty("java.home"), "bin", "jstack");
		Process dump = new ProcessBuilder(jstack.toString(), Long.toString(process.pid())).redirectErrorStream(true)
			.start();
		String[] threads = new String(dump.getInputStream().readAllBytes()).split("\n\n");
		Map<String, Integer> where = new HashMap<>();
		for (String thread : threads) {
			if (!thread.startsWith("\"heartbeat") && !thread.startsWith("\"slot")) {
				continue;
			}
			String[] lines = thread.split("\n");
			String lane = lines[0].replaceAll("^\"([a-z-]+?)-?\\d*\".*", "$1");
			String frame = Stream.of(lines)
				.filter((l) -> l.contains("io.slotkeeper"))
				.findFirst()
				.orElse("idle")
				.trim();
			where.merge(lane + " " + frame, 1, Integer::sum);
		}
		where.entrySet()
			.stream()
			.sorted(Map.Entry.<String, Integer>comparingByValue().reversed())
			.limit(12)
			.forEach((e) -> System.out.println("  " + e.getValue() + " " + e.getKey()));
	}

}
