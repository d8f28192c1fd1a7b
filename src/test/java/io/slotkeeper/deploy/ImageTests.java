package io.slotkeeper.deploy;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import io.slotkeeper.testbed.Podman;
import io.slotkeeper.testbed.PostgresServer;
import io.slotkeeper.testbed.PostgresTestBed;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import tools.jackson.databind.json.JsonMapper;

import static io.slotkeeper.deploy.ImageContainer.GRACE;
import static io.slotkeeper.deploy.ImageContainer.IMAGE;
import static io.slotkeeper.deploy.ImageContainer.UID;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The Dockerfile built unchanged by podman (on stand-ins for its base images,
 * {@code src/test/image/}) and the image run as OpenShift's restricted-v2 SCC runs it,
 * with the chart's default memory limit: an arbitrary UID in group 0, a read-only root
 * file system but a /tmp tmpfs, no capabilities, no new privileges. Skipped, saying why,
 * where no container can run; in CI ({@code CI=true}, which installs podman) it fails
 * instead.
 */
@Tag("image")
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ImageTests {

	private static final String CONTAINER = "slot-keeper-image-test";

	private static final JsonMapper JSON = JsonMapper.builder().build();

	private PostgresServer server;

	private String database;

	private ImageContainer container;

	@BeforeAll
	void buildTheImage() {
		ImageContainer.build();
		this.server = PostgresTestBed.dedicated(Map.of());
		this.database = this.server.createDatabase();
		this.server.execute(this.database, "SELECT pg_create_logical_replication_slot('image_test', 'test_decoding')");
	}

	@BeforeEach
	void configureTheContainer() throws IOException {
		this.container = ImageContainer.configuredWith(CONTAINER,
				String.join("\n", "slotkeeper:", "  targets:", "    - name: image",
						"      url: " + this.server.jdbcUrl(this.database), "      username: " + this.server.user(),
						"      heartbeat: { interval: 1s }", ""));
	}

	@AfterEach
	void removeTheContainer() throws IOException {
		if (this.container != null) {
			this.container.close();
		}
	}

	@AfterAll
	void stopTheServer() {
		if (this.server != null) {
			this.server.close();
		}
	}

	@Test
	void describesItselfRunsAsNonRootInGroupZeroAndShipsAnEmptyTmp() {
		String labels = Podman
			.run(Duration.ofMinutes(1), "image", "inspect", "--format",
					"{{range $k, $v := .Config.Labels}}{{$k}}={{$v}}\n{{end}}", IMAGE)
			.orThrow();
		assertThat(labels).contains("name=slot-keeper", "io.k8s.display-name=slot-keeper",
				"org.opencontainers.image.title=slot-keeper", "io.openshift.expose-services=8080:http,9090:management");
		assertThat(labels.lines()
			.filter((label) -> label
				.matches("(name|summary|description|io\\.k8s\\.description|io\\.k8s\\.display-name|usage)=.*")))
			.hasSize(6)
			.allSatisfy((label) -> assertThat(label).doesNotContainIgnoringCase("openjdk"));
		assertThat(
				Podman.run(Duration.ofMinutes(1), "image", "inspect", "--format", "{{.Config.User}}", IMAGE).orThrow())
			.isEqualTo("185");
		assertThat(inImage("find /tmp -mindepth 1")).as("files the build left in /tmp").isEmpty();
		assertThat(inImage("find /deployments ! -perm -g+r -o ! -group 0")).as("not readable by group 0").isEmpty();
		assertThat(inImage("find /deployments/lib -newermt @1"))
			.as("dependencies not at the fixed time, whose layer" + " digest would change with every build")
			.isEmpty();
		List<String> layers = Podman
			.run(Duration.ofMinutes(1), "history", "--no-trunc", "--format", "{{.Size}}\t{{.CreatedBy}}", IMAGE)
			.orThrow()
			.lines()
			.filter((layer) -> layer.contains("COPY dir:"))
			.toList();
		assertThat(layers).as("the dependencies and application layers")
			.hasSize(2)
			.noneMatch((layer) -> layer.startsWith("0 B"));
	}

	@Test
	void startsAsOpenShiftRunsItHeartbeatsWritesOnlyTmpServesActuatorOn9090AndStopsOnSigterm() throws Exception {
		assertThat(freeOnLoopback(8080) && freeOnLoopback(9090)).as("ports 8080 and 9090 free for the container")
			.isTrue();
		long start = System.nanoTime();
		this.container.run(List.of());
		this.container.awaitReady(Duration.ofMinutes(2));
		double ready = (System.nanoTime() - start) / 1e9;
		Matcher started = Pattern.compile("Started \\w+ in ([0-9.]+) seconds \\(process running for ([0-9.]+)\\)")
			.matcher(this.container.logs());
		assertThat(started.find()).as("the start-up line in %s", this.container.logs()).isTrue();
		System.out.printf("image test: ready %.2f s after podman run; the JVM says started in %s s, process running"
				+ " for %s s%n", ready, started.group(1), started.group(2));

		await().atMost(Duration.ofSeconds(30))
			.untilAsserted(() -> assertThat(
					JSON.readTree(this.container.get("http://127.0.0.1:9090/actuator/health", Duration.ofSeconds(2)))
						.at("/components/heartbeat/components/image/status")
						.asString())
				.isEqualTo("UP"));
		long beats = heartbeats();
		await().atMost(Duration.ofSeconds(10)).until(() -> heartbeats() > beats);
		assertThat(sessions()).as("slot-keeper's sessions in the target database").isPositive();
		await().atMost(Duration.ofSeconds(10)).until(() -> decodedMessages().contains("prefix: slotkeeper_heartbeat"));
		assertThat(this.container.status("http://127.0.0.1:8080/actuator/health")).as("Actuator on the API port")
			.isNotEqualTo(200);

		String process = this.container.exec("cat", "/proc/1/status");
		assertThat(process).containsPattern("Uid:\\s+" + UID + "\\s")
			.containsPattern("Gid:\\s+0\\s")
			.containsPattern("CapEff:\\s+0{16}")
			.containsPattern("NoNewPrivs:\\s+1");
		// podman itself adds the configuration's mount point (and so changes /etc);
		// nothing else may differ.
		assertThat(Podman.run(Duration.ofMinutes(1), "diff", this.container.name()).orThrow().lines())
			.as("files changed outside /tmp")
			.isSubsetOf("C /etc", "A /etc/slot-keeper");
		assertThat(this.container.exec("sh", "-c", "touch /deployments/x 2>&1 || echo read-only"))
			.contains("read-only");

		long stopping = System.nanoTime();
		Podman.run(GRACE.plusSeconds(15), "stop", "--time", String.valueOf(GRACE.toSeconds()), this.container.name())
			.orThrow();
		double stopped = (System.nanoTime() - stopping) / 1e9;
		System.out.printf("image test: stopped %.2f s after SIGTERM (grace %d s)%n", stopped, GRACE.toSeconds());
		assertThat(stopped).as("seconds to stop after SIGTERM").isLessThan(GRACE.toSeconds());
		assertThat(this.container.logs()).contains("Graceful shutdown complete");
	}

	@Test
	void mapsTheClassArchiveAndStaysInsideTheMemoryLimitWithTheHeapTouched() throws Exception {
		this.container.run(List.of("--env", "JDK_JAVA_OPTIONS=" + ImageContainer.MEASURED_HEAP
				+ " -Xlog:class+load=info:file=/tmp/class-load.log"));
		this.container.awaitReady(Duration.ofMinutes(2));
		long beats = heartbeats();
		await().atMost(Duration.ofSeconds(20)).until(() -> heartbeats() >= beats + 5);

		List<String> loaded = this.container.exec("cat", "/tmp/class-load.log")
			.lines()
			.filter((line) -> line.contains("source:"))
			.toList();
		long shared = loaded.stream().filter((line) -> line.contains("source: shared objects file")).count();
		System.out.printf("image test: %d of %d classes from the class-data archive%n", shared, loaded.size());
		assertThat(shared).as("classes mapped from the archive").isGreaterThan(loaded.size() / 2);

		List<Integer> live = await().atMost(Duration.ofSeconds(30))
			.until(this.container::fullCollections, (all) -> !all.isEmpty());
		ImageContainer.Memory memory = this.container.memory();
		System.out.printf("image test: one target, heap touched: %s; live heap %d MiB%n", memory,
				live.get(live.size() - 1));
		assertThat(memory.limit()).isEqualTo(512L * 1024 * 1024);
		assertThat(memory.anonymous()).as("anonymous memory with the whole heap touched")
			.isLessThan(memory.limit() * 90 / 100);
		assertThat(this.container.state()).isEqualTo("true false");
	}

	private String inImage(String script) {
		return Podman
			.run(Duration.ofMinutes(1), "run", "--rm", "--user", UID + ":0", "--entrypoint", "/bin/sh", IMAGE, "-c",
					script)
			.orThrow();
	}

	// Beats as the application counts them, on the management port the image opens by
	// default.
	private long heartbeats() throws Exception {
		Matcher emitted = Pattern
			.compile("(?m)^slotkeeper_heartbeat_emissions_total\\{[^}]*target=\"image\"[^}]*} ([0-9.E]+)$")
			.matcher(this.container.get("http://127.0.0.1:9090/actuator/prometheus", Duration.ofSeconds(2)));
		return emitted.find() ? (long) Double.parseDouble(emitted.group(1)) : 0;
	}

	// What the server sees: slot-keeper's sessions in the target database.
	private long sessions() throws Exception {
		return (Long) query("SELECT count(*) FROM pg_stat_activity WHERE datname = current_database()"
				+ " AND application_name = 'slot-keeper'");
	}

	// What a logical decoder of the target database sees: the heartbeats' messages, read
	// without consuming them.
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

	private static boolean freeOnLoopback(int port) {
		try (ServerSocket socket = new ServerSocket(port, 1, InetAddress.getLoopbackAddress())) {
			return true;
		}
		catch (IOException ex) {
			return false;
		}
	}

}
