package io.slotkeeper.audit;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
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
import java.util.Optional;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import io.slotkeeper.security.TokenHashes;
import io.slotkeeper.testbed.JavaCommand;
import io.slotkeeper.testbed.PostgresServer;
import io.slotkeeper.testbed.RefusedPort;
import io.slotkeeper.testbed.SlotRecipes;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The application as the chart runs it — its own JVM, configured through environment
 * variables, console logs in Elastic Common Schema JSON — on a real server: every line is
 * JSON, an audit entry is an event whose fields are fields, a target going DOWN and an
 * instance taking a target are events, lines about a target carry it from the MDC, and
 * neither the database password nor the API token is anywhere in the output.
 */
class StructuredLogsTests {

	private static final JsonMapper JSON = JsonMapper.builder().build();

	private static final String PASSWORD = "db-secret-pw-4711";

	private static final String TOKEN = "structured-operator-token-0815";

	@Test
	void auditHeartbeatAndOwnershipAreJsonEventsWithTheirFieldsAndNoSecret(@TempDir Path directory) throws Exception {
		PostgresServer server = SlotRecipes.lossyServer("logs");
		server.execute("logs", "SELECT pg_create_logical_replication_slot('logs_lost', 'pgoutput')");
		int port = freePort();
		Path out = directory.resolve("stdout.log");
		List<String> command = JavaCommand.of(applicationClassPath(), "-Xmx256m");
		command.add("io.slotkeeper.SlotKeeperApplication");
		ProcessBuilder builder = new ProcessBuilder(command).redirectOutput(out.toFile())
			.redirectError(directory.resolve("stderr.log").toFile());
		Map<String, String> env = builder.environment();
		env.put("LOGGING_STRUCTURED_FORMAT_CONSOLE", "ecs");
		env.put("SERVER_PORT", String.valueOf(port));
		env.put("SLOTKEEPER_TARGETS_0_NAME", "logs");
		env.put("SLOTKEEPER_TARGETS_0_URL", server.jdbcUrl("logs"));
		env.put("SLOTKEEPER_TARGETS_0_USERNAME", server.user());
		env.put("SLOTKEEPER_TARGETS_0_PASSWORD", PASSWORD);
		env.put("SLOTKEEPER_TARGETS_0_HEARTBEAT_INTERVAL", "300ms");
		env.put("SLOTKEEPER_TARGETS_0_SLOTS_POLL_INTERVAL", "300ms");
		env.put("SLOTKEEPER_TARGETS_1_NAME", "gone");
		env.put("SLOTKEEPER_TARGETS_1_URL", "jdbc:postgresql://127.0.0.1:" + RefusedPort.PORT + "/gone");
		env.put("SLOTKEEPER_TARGETS_1_USERNAME", "nobody");
		env.put("SLOTKEEPER_TARGETS_1_PASSWORD", PASSWORD);
		env.put("SLOTKEEPER_TARGETS_1_HEARTBEAT_INTERVAL", "200ms");
		env.put("SLOTKEEPER_TARGETS_1_HEARTBEAT_BACKOFF_MIN", "200ms");
		env.put("SLOTKEEPER_TARGETS_1_HEARTBEAT_BACKOFF_MAX", "500ms");
		env.put("SLOTKEEPER_API_TOKENS_0_NAME", "ci");
		env.put("SLOTKEEPER_API_TOKENS_0_ROLE", "operator");
		env.put("SLOTKEEPER_API_TOKENS_0_SHA256", TokenHashes.sha256Hex(TOKEN));
		Process application = builder.start();
		try {
			HttpClient http = HttpClient.newHttpClient();
			await().atMost(Duration.ofSeconds(90))
				.ignoreExceptions()
				.until(() -> http
					.send(HttpRequest.newBuilder(URI.create("http://localhost:" + port + "/actuator/health/liveness"))
						.build(), HttpResponse.BodyHandlers.ofString())
					.statusCode() == 200);
			SlotRecipes.lose(server, "logs", "logs_lost");
			await().atMost(Duration.ofSeconds(30))
				.until(() -> http
					.send(HttpRequest
						.newBuilder(URI
							.create("http://localhost:" + port + "/api/v1/targets/logs/slots/logs_lost/recreate"))
						.header("Authorization", "Bearer " + TOKEN)
						.POST(HttpRequest.BodyPublishers.noBody())
						.build(), HttpResponse.BodyHandlers.ofString())
					.statusCode() == 200);
			await().atMost(Duration.ofSeconds(30))
				.until(() -> event(lines(out), "heartbeat.down").isPresent()
						&& event(lines(out), "ownership.acquired").isPresent()
						&& event(lines(out), "slot.recreate").isPresent());
		}
		catch (RuntimeException | AssertionError ex) {
			throw new AssertionError("the application's output:\n" + tail(out) + "\nits errors:\n"
					+ tail(directory.resolve("stderr.log")), ex);
		}
		finally {
			application.destroy();
			application.waitFor();
		}
		List<JsonNode> lines = lines(out);
		String text = Files.readString(out);
		assertThat(text.lines().filter((line) -> !line.isBlank()))
			.allSatisfy((line) -> assertThat(line).startsWith("{"));
		assertThat(text).doesNotContain(PASSWORD).doesNotContain(TOKEN);

		JsonNode recreate = event(lines, "slot.recreate").orElseThrow();
		assertThat(recreate.at("/user/name").asString()).isEqualTo("ci");
		assertThat(recreate.at("/slotkeeper/target").asString()).isEqualTo("logs");
		assertThat(recreate.at("/slotkeeper/slot").asString()).isEqualTo("logs_lost");
		assertThat(recreate.at("/slotkeeper/outcome").asString()).isEqualTo("done");
		assertThat(recreate.at("/event/outcome").asString()).isEqualTo("success");
		assertThat(recreate.at("/http/response/status_code").asInt()).isEqualTo(200);
		assertThat(recreate.at("/slotkeeper/lsns/skippedFrom").asString()).matches("[0-9A-F]+/[0-9A-F]+");
		assertThat(recreate.at("/log/logger").asString()).isEqualTo("io.slotkeeper.audit");

		JsonNode down = event(lines, "heartbeat.down").orElseThrow();
		assertThat(down.at("/slotkeeper/target").asString()).isEqualTo("gone");
		assertThat(down.at("/error/message").asString()).contains("127.0.0.1");
		assertThat(event(lines, "ownership.acquired").orElseThrow().at("/slotkeeper/target").asString())
			.isEqualTo("logs");
		assertThat(lines).as("a worker's own lines name their target from the MDC").anySatisfy((line) -> {
			assertThat(line.at("/event/action").isMissingNode()).isTrue();
			assertThat(line.at("/slotkeeper/target").asString()).isEqualTo("gone");
		});
		System.out.println("An audit event as emitted:\n" + JSON.writeValueAsString(recreate));
	}

	private static Optional<JsonNode> event(List<JsonNode> lines, String action) {
		return lines.stream().filter((line) -> action.equals(line.at("/event/action").asString(""))).findFirst();
	}

	private static List<JsonNode> lines(Path out) throws IOException {
		List<JsonNode> lines = new ArrayList<>();
		for (String line : Files.readAllLines(out)) {
			if (line.startsWith("{")) {
				lines.add(JSON.readTree(line));
			}
		}
		return lines;
	}

	// The test's class path without the test classes, whose logback-test.xml would
	// replace Spring Boot's own
	// logging configuration, the one that writes structured logs.
	private static String applicationClassPath() {
		String all = System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
		return java.util.Arrays.stream(all.split(java.io.File.pathSeparator))
			.filter((entry) -> !entry.endsWith("test-classes") && !entry.endsWith("test-classes/"))
			.collect(java.util.stream.Collectors.joining(java.io.File.pathSeparator));
	}

	private static String tail(Path file) throws IOException {
		List<String> all = Files.readAllLines(file);
		return String.join("\n", all.subList(Math.max(0, all.size() - 30), all.size()));
	}

	private static int freePort() throws IOException {
		try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
			return socket.getLocalPort();
		}
	}

}
