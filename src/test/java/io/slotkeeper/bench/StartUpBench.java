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
import java.util.concurrent.TimeUnit;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import io.slotkeeper.SlotKeeperApplication;
import io.slotkeeper.testbed.PostgresServer;

import static org.awaitility.Awaitility.await;

/**
 * Start-up and footprint of the whole application in a JVM of its own: plain (Java's
 * defaults) and as the image ships it (the JVM options of the Dockerfile's ENTRYPOINT,
 * the class-data-sharing archive made by the same training run, the heap the chart's 512
 * Mi limit gives), with 0, 10 and 1,000 targets, the application's classes in a jar next
 * to its runtime dependencies, as in the image.
 */
final class StartUpBench {

	private static final int STARTS = 3;

	private static final Duration RUNNING = Duration.ofSeconds(60);

	private StartUpBench() {
	}

	private record Mode(String name, List<String> options, Map<String, String> environment) {
	}

	static void run(BenchReport report, PostgresServer server, List<String> databases) throws Exception {
		Path work = Files.createTempDirectory("bench-start");
		String classPath = classPath(work);
		Dockerfile image = Dockerfile.read();
		Path archive = work.resolve("application.jsa");
		List<String> training = new ArrayList<>(List.of(java()));
		training.addAll(image.trainingOptions(archive));
		training.addAll(List.of("-cp", classPath, SlotKeeperApplication.class.getName(), "--server.port=0",
				"--management.server.port=0"));
		Process trained = new ProcessBuilder(training).redirectErrorStream(true)
			.redirectOutput(ProcessBuilder.Redirect.DISCARD)
			.start();
		if (!trained.waitFor(3, TimeUnit.MINUTES) || !Files.exists(archive)) {
			throw new IllegalStateException("the training run wrote no archive: " + training);
		}
		List<String> shipped = new ArrayList<>(image.runOptions(archive));
		shipped.add(image.chartHeap());
		List<Mode> modes = List.of(new Mode("plain", List.of(), Map.of()),
				new Mode("as shipped", shipped, image.nativeEnvironment()));
		List<List<Object>> rows = new ArrayList<>();
		List<String> running = new ArrayList<>();
		for (int count : new int[] { 0, 100, 1000 }) {
			Path config = config(work, server, databases, count);
			for (Mode mode : modes) {
				double[] ready = new double[STARTS];
				double[] rss = new double[STARTS];
				double[] threads = new double[STARTS];
				double[] heap = new double[STARTS];
				for (int r = 0; r < STARTS; r++) {
					boolean last = r == STARTS - 1 && count == 1000;
					double[] one = start(server, classPath, mode, config, count, last ? running : null);
					ready[r] = one[0];
					rss[r] = one[1];
					threads[r] = one[2];
					heap[r] = one[3];
				}
				rows.add(List.of(count, mode.name(), String.format("%.2f", BenchReport.median(ready)),
						String.format("%.2f–%.2f", min(ready), max(ready)),
						String.format("%.0f", BenchReport.median(rss)),
						String.format("%.0f", BenchReport.median(threads)),
						String.format("%.1f", BenchReport.median(heap))));
			}
		}
		report.section("## 6. Start-up and footprint\n\nThe whole application in a JVM of its own per start, its"
				+ " classes in a jar next to its runtime dependencies as in the image; " + STARTS + " starts each,"
				+ " median and range. Time from process start to `/actuator/health/readiness` 200; RSS and threads"
				+ " once every target has its heartbeat session (first beats are spread over up to 10 s); *live heap*:"
				+ " the heap in use right after a full collection then (`jcmd GC.run`, `GC.heap_info`). *Plain*:"
				+ " Java's defaults. *As shipped*: the Dockerfile's JAVA_TOOL_OPTIONS and ENTRYPOINT options (`"
				+ String.join(" ", image.runOptions(Path.of("application.jsa"))) + "`), the archive made by the"
				+ " Dockerfile's training run (`" + String.join(" ", image.trainingOptions(Path.of("application.jsa")))
				+ "`), and the heap the chart's 512 Mi limit gives (`" + image.chartHeap()
				+ "`). Targets: 30 s interval, on " + databases.size() + " databases of one server.\n\n"
				+ BenchReport.table(
						List.of("targets", "JVM", "ready (s)", "range", "RSS (MiB)", "threads", "live heap (MiB)"),
						rows)
				+ "\nAfter the last start with 1,000 targets, " + RUNNING.toSeconds() + " s more of running: "
				+ String.join("; ", running) + ".\n");
	}

	private static double[] start(PostgresServer server, String classPath, Mode mode, Path config, int count,
			List<String> running) throws Exception {
		int port = BenchSupport.freePort();
		List<String> command = new ArrayList<>(List.of(java()));
		command.addAll(mode.options());
		command.addAll(List.of("-cp", classPath, SlotKeeperApplication.class.getName(), "--server.port=" + port,
				"--spring.config.additional-location=file:" + config));
		Path log = config.resolveSibling("start-" + port + ".log");
		long start = System.nanoTime();
		ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile());
		builder.environment().putAll(mode.environment());
		Process process = builder.start();
		try {
			HttpClient http = HttpClient.newHttpClient();
			HttpRequest readiness = HttpRequest
				.newBuilder(URI.create("http://localhost:" + port + "/actuator/health/readiness"))
				.build();
			await().pollInterval(Duration.ofMillis(20)).atMost(Duration.ofSeconds(60)).until(() -> {
				try {
					return http.send(readiness, HttpResponse.BodyHandlers.discarding()).statusCode() == 200;
				}
				catch (IOException ex) {
					return false;
				}
			});
			double ready = (System.nanoTime() - start) / 1e9;
			if (count > 0) {
				await("every target's heartbeat session, the application's log in " + log)
					.atMost(Duration.ofSeconds(60))
					.until(() -> BenchSupport.sessions(server) >= count);
			}
			double[] figures = { ready, BenchReport.rssKib(process.pid()) / 1024.0,
					BenchSupport.threadsOf(process.pid()), liveHeapMib(process.pid()) };
			if (running != null) {
				long cpuBefore = cpuTicks(process.pid());
				BenchSupport.idle(RUNNING);
				// A JVM that ran out of heap exits (ExitOnOutOfMemoryError): that is the
				// figure then.
				running.add(!process.isAlive()
						? mode.name() + ": **exited** before the minute was over ("
								+ Files.readAllLines(log)
									.stream()
									.filter((line) -> line.contains("OutOfMemoryError"))
									.findFirst()
									.orElse("exit code " + process.exitValue())
								+ ")"
						: mode.name() + ": " + String.format("%.1f", (cpuTicks(process.pid()) - cpuBefore) / 100.0)
								+ " s of CPU, RSS " + (BenchReport.rssKib(process.pid()) >> 10) + " MiB, "
								+ BenchSupport.threadsOf(process.pid()) + " threads, " + BenchSupport.sessions(server)
								+ " sessions on the server");
			}
			return figures;
		}
		finally {
			process.destroy();
			process.waitFor(30, TimeUnit.SECONDS);
			await().atMost(Duration.ofSeconds(30)).until(() -> BenchSupport.sessions(server) == 0);
		}
	}

	private static Path config(Path work, PostgresServer server, List<String> databases, int count) throws IOException {
		StringBuilder yaml = new StringBuilder("slotkeeper:\n  targets:");
		yaml.append((count == 0) ? " []\n" : "\n");
		for (int i = 0; i < count; i++) {
			yaml.append("    - name: t")
				.append(i)
				.append("\n      url: ")
				.append(server.jdbcUrl(databases.get(i % databases.size())))
				.append("\n      username: ")
				.append(server.user())
				.append("\n      heartbeat: { interval: 30s }\n");
		}
		Path file = work.resolve("targets-" + count + ".yaml");
		Files.writeString(file, yaml);
		return file;
	}

	// The application's classes in a jar (class-data sharing takes jars, not
	// directories), then the runtime
	// dependencies that the bench profile lists.
	static String classPath(Path work) throws IOException {
		Path listing = Path.of("target/runtime-classpath.txt");
		if (!Files.exists(listing)) {
			throw new IllegalStateException("target/runtime-classpath.txt is missing: run ./mvnw -Pbench test");
		}
		Path jar = work.resolve("slot-keeper.jar");
		Path classes = Path.of("target/classes");
		try (JarOutputStream out = new JarOutputStream(Files.newOutputStream(jar));
				Stream<Path> files = Files.walk(classes)) {
			// Directory entries too: component scanning finds a package in a jar through
			// its directory entry.
			for (Path file : files.filter((path) -> !path.equals(classes)).toList()) {
				String name = classes.relativize(file).toString().replace('\\', '/');
				out.putNextEntry(new JarEntry(Files.isDirectory(file) ? name + "/" : name));
				if (!Files.isDirectory(file)) {
					Files.copy(file, out);
				}
				out.closeEntry();
			}
		}
		return jar + java.io.File.pathSeparator + Files.readString(listing).trim();
	}

	// The heap in use right after a full collection: what the targets keep, not what is
	// waiting to be collected.
	private static double liveHeapMib(long pid) throws Exception {
		String jcmd = Path.of(java()).resolveSibling("jcmd").toString();
		Process collect = new ProcessBuilder(jcmd, String.valueOf(pid), "GC.run").redirectErrorStream(true)
			.redirectOutput(ProcessBuilder.Redirect.DISCARD)
			.start();
		collect.waitFor(60, TimeUnit.SECONDS);
		Process info = new ProcessBuilder(jcmd, String.valueOf(pid), "GC.heap_info").redirectErrorStream(true).start();
		String heap = new String(info.getInputStream().readAllBytes());
		info.waitFor(60, TimeUnit.SECONDS);
		java.util.regex.Matcher used = java.util.regex.Pattern.compile("used (\\d+)K").matcher(heap);
		if (!used.find()) {
			throw new IllegalStateException("no heap use in: " + heap);
		}
		return Long.parseLong(used.group(1)) / 1024.0;
	}

	static long cpuTicks(long pid) throws IOException {
		String[] fields = Files.readString(Path.of("/proc/" + pid + "/stat")).replaceFirst(".*\\) ", "").split(" ");
		return Long.parseLong(fields[11]) + Long.parseLong(fields[12]);
	}

	static String java() {
		return Path.of(System.getProperty("java.home"), "bin", "java").toString();
	}

	private static double min(double[] values) {
		return java.util.Arrays.stream(values).min().orElse(0);
	}

	private static double max(double[] values) {
		return java.util.Arrays.stream(values).max().orElse(0);
	}

	/**
	 * The JVM options of the Dockerfile: the training run's and the ENTRYPOINT's, with
	 * the archive's path replaced.
	 */
	record Dockerfile(List<String> training, List<String> entrypoint, Map<String, String> nativeEnvironment) {

		// JAVA_TOOL_OPTIONS come first, then the ENTRYPOINT's options, as the JVM reads
		// them.
		static Dockerfile read() throws IOException {
			String text = Files.readString(Path.of("Dockerfile")).replace("\\\n", " ");
			Matcher run = Pattern.compile("RUN java ((?:-\\S+\\s+)+)-jar").matcher(text);
			Matcher tool = Pattern.compile("JAVA_TOOL_OPTIONS=\"([^\"]*)\"").matcher(text);
			Matcher entry = Pattern.compile("ENTRYPOINT \\[(.*)]").matcher(text);
			if (!run.find() || !tool.find() || !entry.find()) {
				throw new IllegalStateException("no training run, JAVA_TOOL_OPTIONS or ENTRYPOINT in the Dockerfile");
			}
			List<String> options = new ArrayList<>(List.of(tool.group(1).trim().split("\\s+")));
			List<String> entrypoint = new ArrayList<>();
			Matcher quoted = Pattern.compile("\"([^\"]*)\"").matcher(entry.group(1));
			while (quoted.find()) {
				entrypoint.add(quoted.group(1));
			}
			options.addAll(entrypoint.subList(1, entrypoint.indexOf("-jar")));
			// What the image's environment tells the C library rather than the JVM, such
			// as MALLOC_ARENA_MAX.
			Map<String, String> environment = new java.util.TreeMap<>();
			Matcher variable = Pattern.compile("\\b(MALLOC_[A-Z_]+)=(\\S+)").matcher(text);
			while (variable.find()) {
				environment.put(variable.group(1), variable.group(2));
			}
			return new Dockerfile(List.of(run.group(1).trim().split("\\s+")), options, Map.copyOf(environment));
		}

		List<String> trainingOptions(Path archive) {
			return this.training.stream()
				.map((option) -> option.startsWith("-XX:ArchiveClassesAtExit=") ? "-XX:ArchiveClassesAtExit=" + archive
						: option)
				.toList();
		}

		/**
		 * The heap the image's {@code -XX:MaxRAMPercentage} gives in the chart's default
		 * 512 Mi limit.
		 * @return an {@code -Xmx} option
		 */
		String chartHeap() {
			int percent = this.entrypoint.stream()
				.filter((option) -> option.startsWith("-XX:MaxRAMPercentage="))
				.map((option) -> Integer.parseInt(option.substring(option.indexOf('=') + 1)))
				.findFirst()
				.orElseThrow();
			return "-Xmx" + 512 * percent / 100 + "m";
		}

		List<String> runOptions(Path archive) {
			return this.entrypoint.stream()
				.map((option) -> option.startsWith("-XX:SharedArchiveFile=") ? "-XX:SharedArchiveFile=" + archive
						: option)
				.toList();
		}

	}

}
