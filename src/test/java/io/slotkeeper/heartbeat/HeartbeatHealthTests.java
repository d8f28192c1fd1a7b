package io.slotkeeper.heartbeat;

import java.time.Duration;

import org.junit.jupiter.api.Test;

import io.slotkeeper.ApplicationTestSupport;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

class HeartbeatHealthTests extends ApplicationTestSupport {

	@Test
	void targetGoesDownWhenItsServerStopsAndUpWhenItReturnsWhileProbesStayUp() {
		assumeTrue(flappyServer().supportsFaults(), "this backend cannot stop servers");
		awaitHealth("flappy", 200, "UP");
		flappyServer().stop();
		try {
			awaitHealth("flappy", 503, "DOWN");
			client().get()
				.uri("/actuator/health/heartbeat/flappy")
				.exchange()
				.expectBody()
				.jsonPath("$.details.consecutiveFailures")
				.value((n) -> org.assertj.core.api.Assertions.assertThat(((Number) n).intValue())
					.isGreaterThanOrEqualTo(2))
				.jsonPath("$.details.reason")
				.exists()
				.jsonPath("$.details.lastError.sqlState")
				.exists();
			client().get().uri("/actuator/health/liveness").exchange().expectStatus().isOk();
			client().get().uri("/actuator/health/readiness").exchange().expectStatus().isOk();
		}
		finally {
			flappyServer().start();
		}
		awaitHealth("flappy", 200, "UP");
	}

	@Test
	void healthyTargetIsUpAndUnreachableTargetIsDown() {
		awaitHealth("up", 200, "UP");
		awaitHealth("down", 503, "DOWN");
		// The overall health is open too, and DOWN while any target is: probes use
		// liveness and readiness instead.
		client().get().uri("/actuator/health").exchange().expectStatus().isEqualTo(503);
		client().get()
			.uri("/actuator/health/heartbeat/idle")
			.exchange()
			.expectBody()
			.jsonPath("$.status")
			.isEqualTo("UNKNOWN");
	}

	private void awaitHealth(String target, int httpStatus, String status) {
		await().atMost(Duration.ofSeconds(15))
			.untilAsserted(() -> client().get()
				.uri("/actuator/health/heartbeat/" + target)
				.exchange()
				.expectStatus()
				.isEqualTo(httpStatus)
				.expectBody()
				.jsonPath("$.status")
				.isEqualTo(status));
	}

}
