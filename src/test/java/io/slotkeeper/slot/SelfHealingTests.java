package io.slotkeeper.slot;

import java.time.Duration;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A slot whose policy says {@code on-lost: recreate} is healed by the poller within a
 * poll interval, its connector restarted and the change audited, until its hourly limit;
 * a slot with the default policy is only reported.
 */
class SelfHealingTests extends SlotApiTestSupport {

	@BeforeEach
	void resetConnect() {
		connect().reset();
	}

	@Test
	void lostSlotIsRecreatedAndItsConnectorResumedUntilTheHourlyLimit() {
		createSlot("healing");
		for (int loss = 1; loss <= 2; loss++) {
			int resumesBefore = resumes();
			loseSlot("healing");
			long lost = System.nanoTime();
			await().atMost(Duration.ofMillis(200 + 2000)).until(() -> resumes() > resumesBefore);
			System.out.printf(
					"healing: connector resumed on the new slot %d ms after the slot was lost (poll interval 200 ms)%n",
					(System.nanoTime() - lost) / 1_000_000);
			assertThat(walStatus("healing")).isEqualTo("reserved");
		}
		viewer().get()
			.uri("/api/v1/audit")
			.exchange()
			.expectStatus()
			.isOk()
			.expectBody()
			.jsonPath("$[?(@.action == 'slot.heal' && @.outcome == 'done')].actor")
			.value((actors) -> assertThat(actors.toString()).contains("slot-keeper"))
			.jsonPath("$[?(@.action == 'slot.heal' && @.outcome == 'done')].lsns.skippedFrom")
			.exists();
		loseSlot("healing");
		await().atMost(Duration.ofSeconds(5))
			.untilAsserted(() -> client().get()
				.uri("/actuator/health/slots/main")
				.exchange()
				.expectStatus()
				.isEqualTo(503)
				.expectBody()
				.jsonPath("$.details.healingStopped.healing")
				.value((reason) -> assertThat(reason.toString()).contains("max-recreations-per-hour 2")));
		assertThat(walStatus("healing")).as("past the limit the slot stays lost").isEqualTo("lost");
		viewer().get()
			.uri("/api/v1/audit")
			.exchange()
			.expectBody()
			.jsonPath("$[?(@.action == 'slot.heal' && @.outcome == 'refused')].detail")
			.value((detail) -> assertThat(detail.toString()).contains("healing stopped"));
		// An operator fixes it by hand: healing is no longer said to be stopped.
		server().execute(DATABASE, "SELECT pg_drop_replication_slot('healing')");
		createSlot("healing");
		await().atMost(Duration.ofSeconds(5))
			.untilAsserted(() -> client().get()
				.uri("/actuator/health/slots/main")
				.exchange()
				.expectBody()
				.jsonPath("$.details.healingStopped")
				.doesNotExist());
		server().execute(DATABASE, "SELECT pg_drop_replication_slot('healing')");
	}

	@Test
	void slotWithTheDefaultPolicyIsOnlyReported() {
		createSlot("reported");
		loseSlot("reported");
		await().during(Duration.ofMillis(1000))
			.atMost(Duration.ofSeconds(3))
			.until(() -> "lost".equals(walStatus("reported")));
		client().get()
			.uri("/actuator/health/slots/main")
			.exchange()
			.expectStatus()
			.isEqualTo(503)
			.expectBody()
			.jsonPath("$.details.invalidated")
			.value((lost) -> assertThat(lost.toString()).contains("reported"));
		server().execute(DATABASE, "SELECT pg_drop_replication_slot('reported')");
	}

	private static int resumes() {
		return (int) connect().requests()
			.stream()
			.filter((request) -> request.path().equals("/connectors/healing-connector/resume"))
			.count();
	}

	private static String walStatus(String slot) {
		return server().queryForString("postgres",
				"SELECT wal_status FROM pg_replication_slots WHERE slot_name = '" + slot + "'");
	}

}
