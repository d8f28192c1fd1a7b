package io.slotkeeper.deploy;

import java.io.IOException;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import io.slotkeeper.testbed.PostgresServer;
import io.slotkeeper.testbed.PostgresTestBed;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The image at the fleet size the chart's default is sized for: 1,000 targets, each with
 * its heartbeat session, in a container with the chart's 512 Mi limit and the whole heap
 * touched, run as restricted-v2 runs it. Prints what the The memory figures of
 * docs/performance.md come from: start-up, the heap that stays live, the container's
 * memory, threads.
 */
@Tag("image")
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ImageFleetTests {

	private static final int TARGETS = 1000;

	private static final int DATABASES = 20;

	private static final JsonMapper JSON = JsonMapper.builder().build();

	private PostgresServer server;

	private final List<String> databases = new ArrayList<>();

	@BeforeAll
	void buildTheImageAndAServerOfTwentyDatabases() {
		ImageContainer.build();
		this.server = PostgresTestBed.dedicated(Map.of("max_connections", String.valueOf(TARGETS + 100)));
		for (int i = 0; i < DATABASES; i++) {
			this.databases.add(this.server.createDatabase());
		}
	}

	@AfterAll
	void stopTheServer() {
		if (this.server != null) {
			this.server.close();
		}
	}

	@Test
	void holdsAThousandTargetsInsideTheChartsMemoryLimitWithTheHeapTouched() throws Exception {
		StringBuilder yaml = new StringBuilder("slotkeeper:\n  targets:\n");
		for (int i = 0; i < TARGETS; i++) {
			yaml.append("    - name: t")
				.append(i)
				.append("\n      url: ")
				.append(this.server.jdbcUrl(this.databases.get(i % DATABASES)))
				.append("\n      username: ")
				.append(this.server.user())
				.append("\n      heartbeat: { interval: 10s }\n");
		}
		try (ImageContainer container = ImageContainer.configuredWith("slot-keeper-image-fleet", yaml.toString())) {
			long start = System.nanoTime();
			container.run(List.of("--env", "JDK_JAVA_OPTIONS=" + ImageContainer.MEASURED_HEAP));
			container.awaitReady(Duration.ofMinutes(3));
			double ready = seconds(start);
			await().pollInterval(Duration.ofSeconds(2))
				.atMost(Duration.ofMinutes(4))
				.until(() -> up(container) == TARGETS);
			double allUp = seconds(start);

			// A full collection after every target is up, so that what stays live
			// includes every target's state.
			int collections = container.fullCollections().size();
			List<Integer> live = await().atMost(Duration.ofMinutes(1))
				.until(container::fullCollections, (all) -> all.size() > collections);
			ImageContainer.Memory memory = container.memory();
			System.out.printf(
					"image test: %d targets: ready %.1f s, all UP %.1f s after podman run; heap touched: %s;"
							+ " live heap %d MiB; %d threads; %d sessions on the server%n",
					TARGETS, ready, allUp, memory, live.get(live.size() - 1), threads(container), sessions());

			assertThat(up(container)).as("targets UP with their heap in full use").isEqualTo(TARGETS);
			assertThat(memory.anonymous()).as("anonymous memory with the whole heap touched at 1,000 targets")
				.isLessThan(memory.limit() * 90 / 100);
			assertThat(container.state()).isEqualTo("true false");
		}
	}

	// Targets whose heartbeat health is UP once they wrote a beat (before it a target is
	// UP for three intervals).
	private static int up(ImageContainer container) throws Exception {
		JsonNode components = JSON
			.readTree(container.get("http://127.0.0.1:9090/actuator/health/heartbeat", Duration.ofSeconds(30)))
			.path("components");
		int up = 0;
		for (Map.Entry<String, JsonNode> entry : components.properties()) {
			if ("UP".equals(entry.getValue().path("status").asString())
					&& entry.getValue().path("details").has("lastSuccessAt")) {
				up++;
			}
		}
		return up;
	}

	private static long threads(ImageContainer container) throws IOException, InterruptedException {
		Matcher threads = Pattern.compile("(?m)^jvm_threads_live_threads(?:\\{[^}]*})? ([0-9.E]+)$")
			.matcher(container.get("http://127.0.0.1:9090/actuator/prometheus", Duration.ofSeconds(30)));
		assertThat(threads.find()).as("jvm_threads_live_threads in the scrape").isTrue();
		return (long) Double.parseDouble(threads.group(1));
	}

	private long sessions() throws Exception {
		try (Connection connection = this.server.connect("postgres");
				Statement statement = connection.createStatement();
				ResultSet row = statement
					.executeQuery("SELECT count(*) FROM pg_stat_activity WHERE application_name = 'slot-keeper'")) {
			row.next();
			return row.getLong(1);
		}
	}

	private static double seconds(long start) {
		return (System.nanoTime() - start) / 1e9;
	}

}
