package io.slotkeeper.slot;

import java.time.Duration;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import io.slotkeeper.sessions.Lsn;
import io.slotkeeper.testbed.ConnectStub;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A slot whose policy says {@code managed-by: patroni} is never dropped or created by
 * slot-keeper, by the API or by healing; once its manager made it anew after its loss,
 * slot-keeper hands its connector over to that slot (stop, offsets to its confirmed
 * position, resume) and audits it as {@code slot.made-anew}.
 */
class ManagedElsewhereTests extends SlotApiTestSupport {

	private static final String SLOT = "patroni_kept";

	@BeforeEach
	void resetConnect() {
		connect().reset();
	}

	@Test
	void aSlotAnotherManagesIsNeverDroppedOrCreatedAndItsConnectorIsHandedOverToTheSlotItsManagerMadeAnew() {
		operator().post()
			.uri("/api/v1/targets/main/slots")
			.contentType(org.springframework.http.MediaType.APPLICATION_JSON)
			.body("{\"name\":\"" + SLOT + "\",\"plugin\":\"pgoutput\"}")
			.exchange()
			.expectStatus()
			.isEqualTo(409)
			.expectBody()
			.jsonPath("$.type")
			.value((type) -> assertThat(type.toString()).endsWith("slot-managed-elsewhere"))
			.jsonPath("$.managedBy")
			.isEqualTo("patroni");
		assertThat(exists(SLOT)).as("the refused create made nothing").isFalse();
		createSlot(SLOT);
		loseSlot(SLOT);
		await().atMost(Duration.ofSeconds(5))
			.untilAsserted(() -> client().get()
				.uri("/actuator/health/slots/main")
				.exchange()
				.expectBody()
				.jsonPath("$.details.invalidated")
				.value((lost) -> assertThat(lost.toString()).contains(SLOT)));
		operator().post()
			.uri("/api/v1/targets/main/slots/" + SLOT + "/recreate")
			.exchange()
			.expectStatus()
			.isEqualTo(409)
			.expectBody()
			.jsonPath("$.detail")
			.value((detail) -> assertThat(detail.toString()).contains("managed by patroni"));
		operator().delete()
			.uri("/api/v1/targets/main/slots/" + SLOT + "?force=true")
			.exchange()
			.expectStatus()
			.isEqualTo(409);
		await("slot-keeper leaves the lost slot to its manager").during(Duration.ofSeconds(1))
			.atMost(Duration.ofSeconds(2))
			.until(() -> "lost".equals(walStatus()));
		assertThat(connect().changes()).as("nothing handed over while the slot is lost").isEmpty();

		// Patroni drops and creates its permanent slot.
		server().execute(DATABASE, "SELECT pg_drop_replication_slot('" + SLOT + "')",
				"SELECT pg_create_logical_replication_slot('" + SLOT + "', 'pgoutput')");
		String made = server().queryForString(DATABASE,
				"SELECT confirmed_flush_lsn::text FROM pg_replication_slots" + " WHERE slot_name = '" + SLOT + "'");
		long remade = System.nanoTime();

		await().atMost(Duration.ofSeconds(10))
			.untilAsserted(() -> assertThat(connect().changes()).extracting(ConnectStub.Request::path)
				.containsSubsequence("/connectors/patroni-connector/stop", "/connectors/patroni-connector/offsets",
						"/connectors/patroni-connector/resume"));
		System.out.printf("managed-by patroni: the connector resumed on the slot its manager made anew %d ms after it"
				+ " was made (poll interval 200 ms)%n", (System.nanoTime() - remade) / 1_000_000);
		assertThat(connect().offsets()).contains("\"lsn\":" + Lsn.parse(made));
		assertThat(server().queryForString(DATABASE,
				"SELECT confirmed_flush_lsn::text FROM pg_replication_slots" + " WHERE slot_name = '" + SLOT + "'"))
			.as("the manager's slot is kept")
			.isEqualTo(made);
		await().atMost(Duration.ofSeconds(5))
			.untilAsserted(() -> viewer().get()
				.uri("/api/v1/audit")
				.exchange()
				.expectBody()
				.jsonPath("$[?(@.action == 'slot.made-anew' && @.outcome == 'done')].detail")
				.value((detail) -> assertThat(detail.toString()).contains("made anew by patroni")));
		await("handed over once").during(Duration.ofSeconds(1))
			.atMost(Duration.ofSeconds(2))
			.until(() -> connect().changes()
				.stream()
				.filter((request) -> request.path().endsWith("/resume"))
				.count() == 1);
		server().execute(DATABASE, "SELECT pg_drop_replication_slot('" + SLOT + "')");
	}

	private static String walStatus() {
		return server().queryForString(DATABASE,
				"SELECT wal_status FROM pg_replication_slots WHERE slot_name = '" + SLOT + "'");
	}

}
