package io.slotkeeper.deploy;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import io.slotkeeper.testbed.Podman;
import io.slotkeeper.testbed.PostgresServer;
import io.slotkeeper.testbed.PostgresTestBed;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import tools.jackson.databind.json.JsonMapper;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The Dockerfile built unchanged by podman (on stand-ins for its base images, {@code src/test/image/}) and the image
 * run as OpenShift's restricted-v2 SCC runs it, with the chart's default memory limit: an arbitrary UID in group 0, a
 * read-only root file system but a /tmp tmpfs, no capabilities, no new privileges. Skipped, saying why, where no
 * container can run; in CI ({@code CI=true}, which installs podman) it fails instead.
 */
@Tag("image")
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ImageTests {

	private static final String IMAGE = "localhost/slot-keeper:image-test";

	private static final String CONTAINER = "slot-keeper-image-test";

	private static final String UID = "1000680000";

	// The chart's default memory limit (helm/slot-keeper/values.yaml) and termination grace period.
	private static final String MEMORY_LIMIT = "512m";

	private static final Duration GRACE = Duration.ofSeconds(45);

	private static final JsonMapper JSON = JsonMapper.builder().build();

	private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

	private PostgresServer server;

	private String database;

	private Path configuration;

	@BeforeAll
	void buildTheImage() throws IOException {
		String why = Podman.whyNotRunnable();
		if (System.getenv("CI") != null) {
			assertThat(why).as("CI installs podman (.ci/run); the image test must run there").isNull();
		}
		assumeTrue(why == null, () -> "image test skipped: " + why);
		Podman.command(Duration.ofMinutes(20), List.of("src/test/image/stand-in-bases.sh", "Dockerfile"))
			.orThrow();
		long start = System.nanoTime();
		Podman.run(Duration.ofMinutes(20), "build", "--pull=never", "--network=host", "--volume",
				Path.of(System.getProperty("user.home"), ".m2") + ":/root/.m2", "--tag", IMAGE, ".")
			.orThrow();
		System.out.printf("image test: built %s in %.0f s%n", IMAGE, (System.nanoTime() - start) / 1e9);
		this.server = PostgresTestBed.dedicated(java.util.Map.of());
		this.database = this.server.createDatabase();
		this.server.execute(this.database, "SELECT pg_create_logical_replication_slot('image_test', 'test_decoding')");
		this.configuration = Files.createTempDirectory("image-test-config");
		Files.writeString(this.configuration.resolve("application.yaml"), String.join("\n", "slotkeeper:",
				"  targets:", "    - name: image", "      url: " + this.server.jdbcUrl(this.database),
				"      username: " + this.server.user(), "      heartbeat: { interval: 1s }", ""));
		// Read by an arbitrary UID, as a ConfigMap mounted read-only is.
		Files.setPosixFilePermissions(this.configuration, PosixFilePermissions.fromString("rwxr-xr-x"));
		Files.setPosixFilePermissions(this.configuration.resolve("application.yaml"),
				PosixFilePermissions.fromString("rw-r--r--"));
	}

	@AfterEach
	void removeTheContainer() {
		if (this.server != null) {
			Podman.run(Duration.ofMinutes(1), "rm", "--force", "--time", "0", CONTAINER);
		}
	}

	@AfterAll
	void stopTheServer() throws IOException {
		if (this.server != null) {
			this.server.close();
		}
		if (this.configuration != null) {
			Files.deleteIfExists(this.configuration.resolve("application.yaml"));
			Files.deleteIfExists(this.configuration);
		}
	}

	@Test
	void describesItselfRunsAsNonRootInGroupZeroAndShipsAnEmptyTmp() {
		String labels = Podman.run(Duration.ofMinutes(1), "image", "inspect", "--format",
				"{{range $k, $v := .Config.Labels}}{{$k}}={{$v}}\n{{end}}", IMAGE)
			.orThrow();
		assertThat(labels).contains("name=slot-keeper", "io.k8s.display-name=slot-keeper",
				"org.opencontainers.image.title=slot-keeper", "io.openshift.expose-services=8080:http,9090:management");
		assertThat(labels.lines().filter((label) -> label.matches(
				"(name|summary|description|io\\.k8s\\.description|io\\.k8s\\.display-name|usage)=.*")))
			.hasSize(6)
			.allSatisfy((label) -> assertThat(label).doesNotContainIgnoringCase("openjdk"));
		assertThat(Podman.run(Duration.ofMinutes(1), "image", "inspect", "--format", "{{.Config.User}}", IMAGE)
			.orThrow()).isEqualTo("185");
		assertThat(inImage("find /tmp -mindepth 1")).as("files the build left in /tmp").isEmpty();
		assertThat(inImage("find /deployments ! -perm -g+r -o ! -group 0")).as("not readable by group 0").isEmpty();
		assertThat(inImage("find /deployments/lib -newermt @1")).as("dependencies not at the fixed time, whose layer"
				+ " digest would change with every build").isEmpty();
		List<String> layers = Podman.run(Duration.ofMinutes(1), "history", "--no-trunc", "--format",
				"{{.Size}}\t{{.CreatedBy}}", IMAGE)
			.orThrow()
			.lines()
			.filter((layer) -> layer.contains("COPY dir:"))
			.toList();
		assertThat(layers).as("the dependencies and application layers").hasSize(2)
			.noneMatch((layer) -> layer.startsWith("0 B"));
	}

	@Test
	void startsAsOpenShiftRunsItHeartbeatsWritesOnlyTmpServesActuatorOn9090AndStopsOnSigterm() throws Exception {
		assertThat(freeOnLoopback(8080) && freeOnLoopback(9090)).as("ports 8080 and 9090 free for the container")
			.isTrue();
		long start = System.nanoTime();
		runContainer(List.of());
		awaitReady();
		double ready = (System.nanoTime() - start) / 1e9;
		Matcher started = Pattern.compile("Started \\w+ in ([0-9.]+) seconds \\(process running for ([0-9.]+)\\)")
			.matcher(logs());
		assertThat(started.find()).as("the start-up line in %s", logs()).isTrue();
		System.out.printf("image test: ready %.2f s after podman run; the JVM says started in %s s, process running"
				+ " for %s s%n", ready, started.group(1), started.group(2));

		await().atMost(Duration.ofSeconds(30))
			.untilAsserted(() -> assertThat(JSON.readTree(get("http://127.0.0.1:9090/actuator/health"))
				.at("/components/heartbeat/components/image/status")
				.asString()).isEqualTo("UP"));
		long beats = heartbeats();
		await().atMost(Duration.ofSeconds(10)).until(() -> heartbeats() > beats);
		assertThat(sessions()).as("slot-keeper's sessions in the target database").isPositive();
		await().atMost(Duration.ofSeconds(10)).until(() -> decodedMessages().contains("prefix: slotkeeper_heartbeat"));
		assertThat(status("http://127.0.0.1:8080/actuator/health")).as("Actuator on the API port").isNotEqualTo(200);

		String process = exec("cat", "/proc/1/status");
		assertThat(process).containsPattern("Uid:\\s+" + UID + "\\s").containsPattern("Gid:\\s+0\\s")
			.containsPattern("CapEff:\\s+0{16}").containsPattern("NoNewPrivs:\\s+1");
		// podman itself adds the configuration's mount point (and so changes /etc); nothing else may differ.
		assertThat(Podman.run(Duration.ofMinutes(1), "diff", CONTAINER).orThrow().lines())
			.as("files changed outside /tmp").isSubsetOf("C /etc", "A /etc/slot-keeper");
		assertThat(exec("sh", "-c", "touch /deployments/x 2>&1 || echo read-only")).contains("read-only");

		long stopping = System.nanoTime();
		Podman.run(GRACE.plusSeconds(15), "stop", "--time", String.valueOf(GRACE.toSeconds()), CONTAINER).orThrow();
		double stopped = (System.nanoTime() - stopping) / 1e9;
		System.out.printf("image test: stopped %.2f s after SIGTERM (grace %d s)%n", stopped, GRACE.toSeconds());
		assertThat(stopped).as("seconds to stop after SIGTERM").isLessThan(GRACE.toSeconds());
		assertThat(logs()).contains("Graceful shutdown complete");
	}

	@Test
	void mapsTheClassArchiveAndStaysInsideTheMemoryLimitWithTheHeapTouched() throws Exception {
		// The whole heap committed (initial = maximum) and touched at start: the footprint of a heap in full use.
		runContainer(List.of("--env",
				"JDK_JAVA_OPTIONS=-XX:InitialRAMPercentage=60 -XX:+AlwaysPreTouch -Xlog:class+load=info:file=/tmp/class-load.log"));
		awaitReady();
		long beats = heartbeats();
		await().atMost(Duration.ofSeconds(20)).until(() -> heartbeats() >= beats + 5);

		List<String> loaded = exec("cat", "/tmp/class-load.log").lines().filter((line) -> line.contains("source:"))
			.toList();
		long shared = loaded.stream().filter((line) -> line.contains("source: shared objects file")).count();
		System.out.printf("image test: %d of %d classes from the class-data archive%n", shared, loaded.size());
		assertThat(shared).as("classes mapped from the archive").isGreaterThan(loaded.size() / 2);

		long limit = Long.parseLong(cgroupMemory("memory.max", "memory.limit_in_bytes"));
		long used = Long.parseLong(cgroupMemory("memory.current", "memory.usage_in_bytes"));
		// Anonymous memory is what the kernel cannot reclaim; the rest it charges is page cache (the jars, the archive).
		Matcher anonymous = Pattern.compile("(?m)^(?:anon|total_rss) (\\d+)$")
			.matcher(cgroupMemory("memory.stat", "memory.stat"));
		assertThat(anonymous.find()).as("anonymous memory in memory.stat").isTrue();
		long anon = Long.parseLong(anonymous.group(1));
		String rss = exec("sh", "-c", "grep VmRSS /proc/1/status");
		System.out.printf("image test: heap touched, cgroup memory %.1f MiB (anonymous %.1f MiB) of %.1f MiB, JVM %s%n",
				used / 1048576.0, anon / 1048576.0, limit / 1048576.0, rss.replaceAll("\\s+", " "));
		assertThat(limit).isEqualTo(512L * 1024 * 1024);
		assertThat(anon).as("anonymous memory with the whole heap touched").isLessThan(limit * 90 / 100);
		assertThat(Podman.run(Duration.ofMinutes(1), "inspect", "--format", "{{.State.Running}} {{.State.OOMKilled}}",
				CONTAINER).orThrow()).isEqualTo("true false");
	}

	private void runContainer(List<String> extra) {
		List<String> arguments = new ArrayList<>(List.of("run", "--detach", "--name", CONTAINER, "--network=host",
				"--user", UID + ":0", "--read-only", "--read-only-tmpfs=false", "--tmpfs",
				"/tmp:rw,mode=1777,notmpcopyup", "--cap-drop=ALL", "--security-opt=no-new-privileges", "--memory",
				MEMORY_LIMIT, "--volume", this.configuration + ":/etc/slot-keeper:ro"));
		arguments.addAll(extra);
		arguments.add(IMAGE);
		Podman.run(Duration.ofMinutes(1), arguments.toArray(String[]::new)).orThrow();
	}

	private void awaitReady() {
		await().atMost(Duration.ofMinutes(2))
			.until(() -> status("http://127.0.0.1:9090/actuator/health/readiness") == 200);
	}

	// A file of the container's memory controller: cgroup v2's name, or v1's where the host mounts v1.
	private String cgroupMemory(String v2, String v1) {
		return exec("sh", "-c", "cat /sys/fs/cgroup/" + v2 + " 2>/dev/null || cat /sys/fs/cgroup/memory/" + v1);
	}

	private String inImage(String script) {
		return Podman.run(Duration.ofMinutes(1), "run", "--rm", "--user", UID + ":0", "--entrypoint", "/bin/sh", IMAGE,
				"-c", script)
			.orThrow();
	}

	private String exec(String... command) {
		List<String> arguments = new ArrayList<>(List.of("exec", CONTAINER));
		arguments.addAll(List.of(command));
		return Podman.run(Duration.ofMinutes(1), arguments.toArray(String[]::new)).orThrow();
	}

	private String logs() {
		return Podman.run(Duration.ofMinutes(1), "logs", CONTAINER).output();
	}

	// Beats as the application counts them, on the management port the image opens by default.
	private long heartbeats() throws Exception {
		Matcher emitted = Pattern.compile("(?m)^slotkeeper_heartbeat_emissions_total\\{[^}]*target=\"image\"[^}]*} ([0-9.E]+)$")
			.matcher(get("http://127.0.0.1:9090/actuator/prometheus"));
		return emitted.find() ? (long) Double.parseDouble(emitted.group(1)) : 0;
	}

	// What the server sees: slot-keeper's sessions in the target database.
	private long sessions() throws Exception {
		return (Long) query("SELECT count(*) FROM pg_stat_activity WHERE datname = current_database()"
				+ " AND application_name = 'slot-keeper'");
	}

	// What a logical decoder of the target database sees: the heartbeats' messages, read without consuming them.
	private String decodedMessages() throws Exception {
		return String.valueOf(query("SELECT string_agg(data, E'\\n') FROM pg_logical_slot_peek_changes('image_test',"
				+ " NULL, NULL) WHERE data LIKE 'message:%'"));
	}

	private Object query(String sql) throws Exception {
		try (Connection connection = this.server.connect(this.database);
				Statement statement = connection.createStatement();
				ResultSet row = statement.executeQuery(sql)) {
			row.next();
			return row.getObject(1);
		}
	}

	private int status(String url) {
		try {
			return this.http.send(HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(2)).build(),
					HttpResponse.BodyHandlers.discarding()).statusCode();
		}
		catch (IOException ex) {
			return -1;
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			return -1;
		}
	}

	private String get(String url) throws Exception {
		return this.http.send(HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(2)).build(),
				HttpResponse.BodyHandlers.ofString()).body();
	}

	private static boolean freeOnLoopback(int port) {
		try (ServerSocket socket = new ServerSocket(port, 1, InetAddress.getLoopbackAddress())) {
			return true;
		}
		catch (IOException ex) {
			return false;
		}
	}

}
