package io.slotkeeper.slot;

import java.time.Duration;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import io.slotkeeper.testbed.LogicalConsumer;
import io.slotkeeper.watching.SlotInsights;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Why is my slot stuck? Each diagnosis, proven with a real consumer configured that way,
 * while target {@code main} heartbeats in message mode every 200 ms (acknowledgement due
 * within three intervals).
 */
class SlotDiagnosisTests extends SlotApiTestSupport {

	@Test
	void eachDiagnosisMatchesHowItsConsumerIsConfigured() throws Exception {
		for (String slot : List.of("diag_idle", "diag_ok", "diag_nomsg", "diag_stuck")) {
			createSlot(slot);
		}
		try (LogicalConsumer ok = new LogicalConsumer(server(), DATABASE, "diag_ok", "pub", true);
				LogicalConsumer noMessages = new LogicalConsumer(server(), DATABASE, "diag_nomsg", "pub", false);
				LogicalConsumer stuck = new LogicalConsumer(server(), DATABASE, "diag_stuck", "pub", true, false)) {
			Map<String, String> expected = Map.of("diag_idle", SlotInsights.INACTIVE, "diag_ok", SlotInsights.OK,
					"diag_nomsg", SlotInsights.NO_MESSAGES, "diag_stuck", SlotInsights.NOT_CONFIRMING);
			await().atMost(Duration.ofSeconds(20))
				.untilAsserted(() -> expected.forEach((slot, diagnosis) -> viewer().get()
					.uri("/api/v1/targets/main/slots/" + slot)
					.exchange()
					.expectStatus()
					.isOk()
					.expectBody()
					.jsonPath("$.diagnosis")
					.isEqualTo(diagnosis)));
			viewer().get()
				.uri("/api/v1/targets/main/slots/diag_ok")
				.exchange()
				.expectBody()
				.jsonPath("$.heartbeatAcknowledged")
				.isEqualTo(true)
				.jsonPath("$.lastAcknowledgedLsn")
				.exists();
			viewer().get()
				.uri("/api/v1/targets/main/slots/diag_nomsg")
				.exchange()
				.expectBody()
				.jsonPath("$.heartbeatAcknowledged")
				.isEqualTo(false);
			String scrape = new String(client().get()
				.uri("/actuator/prometheus")
				.exchange()
				.expectBody()
				.returnResult()
				.getResponseBodyContent());
			assertThat(scrape)
				.containsPattern("slotkeeper_slot_heartbeat_acknowledged\\{[^}]*slot=\"diag_ok\"[^}]*\\} 1")
				.containsPattern("slotkeeper_slot_heartbeat_acknowledged\\{[^}]*slot=\"diag_nomsg\"[^}]*\\} 0");
		}
		finally {
			for (String slot : List.of("diag_idle", "diag_ok", "diag_nomsg", "diag_stuck")) {
				await().atMost(Duration.ofSeconds(10))
					.until(() -> "f".equals(server().queryForString("postgres",
							"SELECT active FROM pg_replication_slots WHERE slot_name = '" + slot + "'")));
				server().execute(DATABASE, "SELECT pg_drop_replication_slot('" + slot + "')");
			}
		}
	}

	@Test
	void aSlotWhoseSafeWalSizeShrinksGetsATimeToLossAndAHealthWarning() {
		createSlot("diag_loss");
		try {
			await().atMost(Duration.ofSeconds(10))
				.untilAsserted(() -> viewer().get()
					.uri("/api/v1/targets/main/slots/diag_loss")
					.exchange()
					.expectBody()
					.jsonPath("$.secondsToLoss")
					.value((seconds) -> assertThat((Number) seconds).isNotNull()
						.satisfies((number) -> assertThat(number.doubleValue()).isPositive())));
			await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> {
				client().get()
					.uri("/actuator/health/slots/main")
					.exchange()
					.expectBody()
					.jsonPath("$.details.lossSoon.diag_loss")
					.exists();
				assertThat(new String(client().get()
					.uri("/actuator/prometheus")
					.exchange()
					.expectBody()
					.returnResult()
					.getResponseBodyContent()))
					.containsPattern("slotkeeper_slot_seconds_to_loss\\{[^}]*slot=\"diag_loss\"");
			});
		}
		finally {
			server().execute(DATABASE, "SELECT pg_drop_replication_slot('diag_loss')");
		}
	}

}
