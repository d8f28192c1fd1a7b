package io.slotkeeper.heartbeat;

import java.time.Duration;

import org.junit.jupiter.api.Test;

import org.springframework.http.MediaType;

import io.slotkeeper.ApplicationTestSupport;
import io.slotkeeper.sessions.Lsn;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

class HeartbeatControllerTests extends ApplicationTestSupport {

	@Test
	void listsEveryTargetWithItsHeartbeatAndNoSecrets() {
		await().atMost(Duration.ofSeconds(10))
			.untilAsserted(() -> client().get()
				.uri("/api/v1/targets/up")
				.header("Authorization", "Bearer " + VIEWER)
				.exchange()
				.expectBody()
				.jsonPath("$.heartbeat.emissions")
				.value((emissions) -> assertThat(((Number) emissions).intValue()).isPositive()));
		// A fresh application may not have tried the unreachable target yet.
		await().atMost(Duration.ofSeconds(10))
			.untilAsserted(() -> client().get()
				.uri("/api/v1/targets/down")
				.header("Authorization", "Bearer " + VIEWER)
				.exchange()
				.expectBody()
				.jsonPath("$.heartbeat.lastError.sqlState")
				.exists());
		byte[] body = client().get()
			.uri("/api/v1/targets")
			.header("Authorization", "Bearer " + VIEWER)
			.exchange()
			.expectStatus()
			.isOk()
			.expectBody()
			.jsonPath("$[*].name")
			.isEqualTo(java.util.List.of("up", "down", "flappy", "idle"))
			.jsonPath("$[0].mode")
			.isEqualTo("message")
			.jsonPath("$[0].interval")
			.isEqualTo("PT0.2S")
			.jsonPath("$[0].heartbeat.health")
			.isEqualTo("UP")
			.jsonPath("$[0].serverVersion")
			.value((version) -> assertThat(version.toString()).matches("\\d+\\.\\d+.*"))
			.jsonPath("$[1].heartbeat.lastError.sqlState")
			.isEqualTo("08001")
			.jsonPath("$[3].enabled")
			.isEqualTo(false)
			.jsonPath("$[3].heartbeat.health")
			.isEqualTo("UNKNOWN")
			.returnResult()
			.getResponseBodyContent();
		assertThat(new String(body)).doesNotContain(DB_PASSWORD).doesNotContain("jdbc:postgresql");
	}

	@Test
	void heartbeatOnRequestReturnsItsLsnAndDuration() {
		await().atMost(Duration.ofSeconds(10)).until(() -> lastLsn("up") != null);
		long before = Lsn.parse(lastLsn("up"));
		client().post()
			.uri("/api/v1/targets/up/heartbeat")
			.header("Authorization", "Bearer " + OPERATOR)
			.exchange()
			.expectStatus()
			.isOk()
			.expectBody()
			.jsonPath("$.target")
			.isEqualTo("up")
			.jsonPath("$.lsn")
			.value((lsn) -> assertThat(Lsn.parse(lsn.toString())).isGreaterThan(before))
			.jsonPath("$.durationMillis")
			.value((millis) -> assertThat(((Number) millis).doubleValue()).isPositive());
	}

	@Test
	void unknownTargetIsA404Problem() {
		client().get()
			.uri("/api/v1/targets/nope")
			.header("Authorization", "Bearer " + VIEWER)
			.exchange()
			.expectStatus()
			.isNotFound()
			.expectHeader()
			.contentType(MediaType.APPLICATION_PROBLEM_JSON)
			.expectBody()
			.jsonPath("$.type")
			.isEqualTo("urn:slotkeeper:problem:target-not-found")
			.jsonPath("$.target")
			.isEqualTo("nope");
	}

	@Test
	void heartbeatToATargetThatIsDownIsA503ProblemWithTheSqlState() {
		client().post()
			.uri("/api/v1/targets/down/heartbeat")
			.header("Authorization", "Bearer " + OPERATOR)
			.exchange()
			.expectStatus()
			.isEqualTo(503)
			.expectHeader()
			.contentType(MediaType.APPLICATION_PROBLEM_JSON)
			.expectBody()
			.jsonPath("$.type")
			.isEqualTo("urn:slotkeeper:problem:target-unavailable")
			.jsonPath("$.sqlState")
			.isEqualTo("08001")
			.jsonPath("$.detail")
			.value((detail) -> assertThat(detail.toString()).contains("down").doesNotContain(DB_PASSWORD));
	}

	@Test
	void aTargetNameThatIsNoNameIsA400AndForgesNoAuditField() {
		client().post()
			.uri("/api/v1/targets/{target}/heartbeat", "up actor=bob outcome=done")
			.header("Authorization", "Bearer " + OPERATOR)
			.exchange()
			.expectStatus()
			.isBadRequest()
			.expectHeader()
			.contentType(MediaType.APPLICATION_PROBLEM_JSON);
		client().get()
			.uri("/api/v1/audit")
			.header("Authorization", "Bearer " + VIEWER)
			.exchange()
			.expectBody(String.class)
			.value((audit) -> assertThat(audit).doesNotContain("bob"));
	}

	@Test
	void heartbeatToADisabledTargetIsRefused() {
		client().post()
			.uri("/api/v1/targets/idle/heartbeat")
			.header("Authorization", "Bearer " + OPERATOR)
			.exchange()
			.expectStatus()
			.isEqualTo(409)
			.expectBody()
			.jsonPath("$.type")
			.isEqualTo("urn:slotkeeper:problem:heartbeat-disabled");
	}

	@Test
	void unsupportedMethodIsAProblemToo() {
		client().delete()
			.uri("/api/v1/targets/up")
			.header("Authorization", "Bearer " + OPERATOR)
			.exchange()
			.expectStatus()
			.isEqualTo(405)
			.expectHeader()
			.contentType(MediaType.APPLICATION_PROBLEM_JSON);
	}

	private String lastLsn(String target) {
		Object lsn = client().get()
			.uri("/api/v1/targets/" + target)
			.header("Authorization", "Bearer " + VIEWER)
			.exchange()
			.returnResult(java.util.Map.class)
			.getResponseBody()
			.get("heartbeat");
		return (String) ((java.util.Map<?, ?>) lsn).get("lastLsn");
	}

}
