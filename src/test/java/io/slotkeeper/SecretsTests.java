package io.slotkeeper;

import java.time.Duration;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.test.web.servlet.client.RestTestClient;

import io.slotkeeper.security.TokenHashes;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Passwords and tokens never show in logs, responses or actuator endpoints, from start-up
 * to failures.
 */
@ExtendWith(OutputCaptureExtension.class)
class SecretsTests {

	private static final String PASSWORD = "pw-that-must-never-show";

	private static final String TOKEN = "token-that-must-never-show";

	@Test
	void secretsNeverShowInLogsResponsesOrActuator(CapturedOutput output) {
		try (ConfigurableApplicationContext context = new SpringApplicationBuilder(SlotKeeperApplication.class).run(
				"--server.port=0", "--slotkeeper.targets[0].name=orders",
				"--slotkeeper.targets[0].url=jdbc:postgresql://127.0.0.1:1/orders",
				"--slotkeeper.targets[0].username=keeper", "--slotkeeper.targets[0].password=" + PASSWORD,
				// The first beat comes within one interval (at most 10 s): a second's
				// keeps it within the wait below.
				"--slotkeeper.targets[0].heartbeat.interval=1s", "--slotkeeper.targets[0].heartbeat.backoff.min=50ms",
				"--slotkeeper.targets[0].heartbeat.backoff.max=50ms",
				"--slotkeeper.connector-discovery.kafka-connect[0].url=http://127.0.0.1:1",
				"--slotkeeper.connector-discovery.kafka-connect[0].username=connect",
				"--slotkeeper.connector-discovery.kafka-connect[0].password=" + PASSWORD,
				"--slotkeeper.api.tokens[0].name=ci", "--slotkeeper.api.tokens[0].role=operator",
				"--slotkeeper.api.tokens[0].sha256=" + TokenHashes.sha256Hex(TOKEN))) {
			RestTestClient client = RestTestClient.bindToServer()
				.baseUrl("http://localhost:" + context.getEnvironment().getProperty("local.server.port"))
				.defaultHeader("Authorization", "Bearer " + TOKEN)
				.build();
			await().atMost(Duration.ofSeconds(10))
				.until(() -> output.getOut().contains("Heartbeat to target 'orders' failed") && output.getOut()
					.contains("Listing the connectors of kafka-connect http://127.0.0.1:1 failed"));
			StringBuilder responses = new StringBuilder();
			for (String path : new String[] { "/api/v1/targets", "/api/v1/targets/orders", "/actuator/health",
					"/actuator/env", "/actuator/configprops", "/actuator/env/slotkeeper.targets[0].password",
					"/actuator/env/slotkeeper.connector-discovery.kafka-connect[0].password", "/api/v1/connectors",
					"/v3/api-docs" }) {
				responses.append(new String(
						client.get().uri(path).exchange().expectBody().returnResult().getResponseBodyContent()));
			}
			responses.append(new String(client.post()
				.uri("/api/v1/targets/orders/heartbeat")
				.exchange()
				.expectBody()
				.returnResult()
				.getResponseBodyContent()));
			assertThat(responses.toString()).contains("orders").doesNotContain(PASSWORD).doesNotContain(TOKEN);
		}
		assertThat(output.getAll()).contains("Heartbeat to target 'orders' failed (SQLState 08001)")
			.doesNotContain(PASSWORD)
			.doesNotContain(TOKEN)
			.doesNotContain("Using generated security password");
	}

	@Test
	void withNothingConfiguredTheServiceIdlesAndRefusesTheApi(CapturedOutput output) {
		try (ConfigurableApplicationContext context = new SpringApplicationBuilder(SlotKeeperApplication.class)
			.run("--server.port=0")) {
			RestTestClient client = RestTestClient.bindToServer()
				.baseUrl("http://localhost:" + context.getEnvironment().getProperty("local.server.port"))
				.build();
			client.get()
				.uri("/api/v1/targets")
				.header("Authorization", "Bearer anything")
				.exchange()
				.expectStatus()
				.isUnauthorized();
			client.get()
				.uri("/actuator/health")
				.exchange()
				.expectStatus()
				.isOk()
				.expectBody()
				.jsonPath("$.components.heartbeat.details.targets")
				.isEqualTo(0);
		}
		assertThat(output.getAll())
			.contains("No targets are configured (slotkeeper.targets is empty): slot-keeper idles")
			.contains("No API tokens are configured (slotkeeper.api.tokens is empty): every /api call is refused");
	}

}
