package io.slotkeeper;

import java.time.Duration;
import java.util.Map;

import org.junit.jupiter.api.Test;

import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.test.web.servlet.client.RestTestClient;

import io.slotkeeper.security.TokenHashes;
import io.slotkeeper.testbed.PostgresServer;
import io.slotkeeper.testbed.PostgresTestBed;
import io.slotkeeper.testbed.TcpProxy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The target is reached through a forwarder playing its Service; another server takes
 * over behind it. The whole application notices: it audits {@code target.failover},
 * counts it, shows it on the target, and heartbeats the new primary; a server in recovery
 * is never taken for the primary.
 */
class FailoverNoticeTests {

	private static final String TOKEN = "failover-viewer-token";

	@Test
	void anotherServerBehindTheTargetIsRecordedAsAFailoverAndHeartbeatsResumeThere() throws Exception {
		try (PostgresServer first = PostgresTestBed.dedicated(Map.of());
				PostgresServer second = PostgresTestBed.dedicated(Map.of());
				TcpProxy service = new TcpProxy(first.host(), first.port());
				ConfigurableApplicationContext app = new SpringApplicationBuilder(SlotKeeperApplication.class).run(
						"--server.port=0", "--slotkeeper.targets[0].name=orders",
						"--slotkeeper.targets[0].url=jdbc:postgresql://127.0.0.1:" + service.port() + "/postgres",
						"--slotkeeper.targets[0].username=" + first.user(),
						"--slotkeeper.targets[0].heartbeat.interval=200ms",
						"--slotkeeper.targets[0].heartbeat.backoff.min=200ms",
						"--slotkeeper.targets[0].heartbeat.backoff.max=500ms",
						"--slotkeeper.targets[0].slots-poll-interval=10m", "--slotkeeper.api.tokens[0].name=ci",
						"--slotkeeper.api.tokens[0].role=viewer",
						"--slotkeeper.api.tokens[0].sha256=" + TokenHashes.sha256Hex(TOKEN))) {
			RestTestClient client = RestTestClient.bindToServer()
				.baseUrl("http://localhost:" + app.getEnvironment().getProperty("local.server.port"))
				.defaultHeader("Authorization", "Bearer " + TOKEN)
				.build();
			await().atMost(Duration.ofSeconds(10)).until(() -> sessions(first) > 0 && emissions(client) > 0);
			client.get()
				.uri("/api/v1/targets/orders")
				.exchange()
				.expectBody()
				.jsonPath("$.lastFailoverAt")
				.doesNotExist()
				.jsonPath("$.timeline")
				.isEqualTo(1);
			// With polls every 10 minutes, only the failover can make the next one.
			await().atMost(Duration.ofSeconds(10)).until(() -> pollAge(client) >= 3);
			service.retarget(second.host(), second.port());
			long switched = System.nanoTime();
			service.closeConnections();
			long before = emissions(client);
			// Only the forwarder leads to a server: heartbeats that succeed now were
			// written into the second one.
			await().atMost(Duration.ofSeconds(10)).until(() -> sessions(second) > 0 && emissions(client) > before + 1);
			long resumed = System.nanoTime();
			await().atMost(Duration.ofSeconds(5))
				.untilAsserted(() -> client.get()
					.uri("/api/v1/audit")
					.exchange()
					.expectBody()
					.jsonPath("$[?(@.action == 'target.failover')].actor")
					.isEqualTo(java.util.List.of("slot-keeper")));
			System.out.printf("failover noticed and heartbeats resumed on the new server %d ms after the switch%n",
					(resumed - switched) / 1_000_000);
			client.get().uri("/api/v1/targets/orders").exchange().expectBody().jsonPath("$.lastFailoverAt").exists();
			await("the slots read at once on the new server").atMost(Duration.ofSeconds(5))
				.until(() -> pollAge(client) < 3);
			assertThat(new String(client.get()
				.uri("/actuator/prometheus")
				.exchange()
				.expectBody()
				.returnResult()
				.getResponseBodyContent())).contains("slotkeeper_target_failovers_total{target=\"orders\"} 1.0");
		}
	}

	private static double pollAge(RestTestClient client) {
		String metrics = new String(client.get()
			.uri("/actuator/prometheus")
			.exchange()
			.expectBody()
			.returnResult()
			.getResponseBodyContent());
		java.util.regex.Matcher age = java.util.regex.Pattern
			.compile("(?m)^slotkeeper_slot_poll_age_seconds\\{target=\"orders\"\\} (\\S+)$")
			.matcher(metrics);
		return age.find() ? Double.parseDouble(age.group(1)) : Double.NaN;
	}

	private static long sessions(PostgresServer server) {
		return Long.parseLong(server.queryForString("postgres",
				"SELECT count(*) FROM pg_stat_activity WHERE application_name = 'slot-keeper'"));
	}

	private static long emissions(RestTestClient client) {
		Object emissions = client.get()
			.uri("/api/v1/targets/orders")
			.exchange()
			.expectBody()
			.returnResult()
			.getResponseBody();
		String body = new String((byte[]) emissions);
		java.util.regex.Matcher matcher = java.util.regex.Pattern.compile("\"emissions\":(\\d+)").matcher(body);
		return matcher.find() ? Long.parseLong(matcher.group(1)) : 0;
	}

}
