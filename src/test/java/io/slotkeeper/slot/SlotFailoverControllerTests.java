package io.slotkeeper.slot;

import java.time.Duration;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import org.springframework.http.MediaType;

import io.slotkeeper.testbed.LogicalConsumer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assumptions.assumeThat;
import static org.awaitility.Awaitility.await;

/**
 * {@code PATCH …/slots/{slot}} with {@code {"failover": true}}: on PostgreSQL 17 it runs
 * {@code ALTER_REPLICATION_SLOT} over a replication connection, with a dry run,
 * {@code If-Match} and the audit of every change; an active slot is refused unless
 * forced; before 17, and for what cannot fail over, 422.
 */
@Tag("pg-compat")
@Tag("pg-each")
class SlotFailoverControllerTests extends SlotApiTestSupport {

	@Test
	void failoverIsSwitchedOnAfterADryRunAndAuditedOrIs422Before17() {
		createSlot("to_fail_over");
		String etag = operator().get()
			.uri("/api/v1/targets/main/slots/to_fail_over")
			.exchange()
			.expectStatus()
			.isOk()
			.returnResult(String.class)
			.getResponseHeaders()
			.getETag();
		if (server().majorVersion() < 17) {
			patch("to_fail_over", "", true).exchange()
				.expectStatus()
				.isEqualTo(422)
				.expectHeader()
				.contentType(MediaType.APPLICATION_PROBLEM_JSON)
				.expectBody()
				.jsonPath("$.detail")
				.value((detail) -> assertThat(detail.toString()).contains("PostgreSQL 17"));
			assertThat(failover("to_fail_over")).isNull();
			return;
		}
		patch("to_fail_over", "?dryRun=true", true).exchange()
			.expectStatus()
			.isOk()
			.expectBody()
			.jsonPath("$.wouldBeRefused")
			.isEqualTo(false)
			.jsonPath("$.steps")
			.isEqualTo(List.of("ALTER_REPLICATION_SLOT to_fail_over (FAILOVER true) over a replication connection"));
		assertThat(failover("to_fail_over")).isEqualTo("f");
		patch("to_fail_over", "", true).header("If-Match", "\"stale\"").exchange().expectStatus().isEqualTo(412);
		assertThat(failover("to_fail_over")).isEqualTo("f");
		String changedTag = patch("to_fail_over", "", true).header("If-Match", etag)
			.exchange()
			.expectStatus()
			.isOk()
			.expectBody()
			.jsonPath("$.failover")
			.isEqualTo(true)
			.returnResult()
			.getResponseHeaders()
			.getETag();
		assertThat(changedTag).isNotEqualTo(etag);
		assertThat(failover("to_fail_over")).isEqualTo("t");
		patch("to_fail_over", "", true).exchange()
			.expectStatus()
			.isOk()
			.expectBody()
			.jsonPath("$.failover")
			.isEqualTo(true);
		patch("to_fail_over", "?dryRun=true", true).exchange()
			.expectStatus()
			.isOk()
			.expectBody()
			.jsonPath("$.steps")
			.isEqualTo(List.of("slot to_fail_over already has failover true: nothing to do"));
		viewer().get()
			.uri("/api/v1/audit")
			.exchange()
			.expectBody()
			.jsonPath("$[?(@.action == 'slot.failover' && @.outcome == 'done')].parameters.failover")
			.isEqualTo(List.of(true, true))
			.jsonPath("$[?(@.action == 'slot.failover' && @.outcome == 'refused')].status")
			.isEqualTo(List.of(412));
		server().execute(DATABASE, "SELECT pg_drop_replication_slot('to_fail_over')");
	}

	@Test
	void anActiveSlotIsRefusedWith409UnlessForcedWhichEndsItsConsumerFirst() throws Exception {
		assumeThat(server().majorVersion()).as("failover slots need PostgreSQL 17").isGreaterThanOrEqualTo(17);
		createSlot("consumed_fail_over");
		try (LogicalConsumer consumer = new LogicalConsumer(server(), DATABASE, "consumed_fail_over", "pub", true)) {
			await().atMost(Duration.ofSeconds(10))
				.until(() -> "t".equals(server().queryForString("postgres",
						"SELECT active FROM pg_replication_slots WHERE slot_name = 'consumed_fail_over'")));
			patch("consumed_fail_over", "", true).exchange()
				.expectStatus()
				.isEqualTo(409)
				.expectBody()
				.jsonPath("$.type")
				.isEqualTo("urn:slotkeeper:problem:slot-active");
			assertThat(failover("consumed_fail_over")).isEqualTo("f");
			patch("consumed_fail_over", "?force=true&dryRun=true", true).exchange()
				.expectStatus()
				.isOk()
				.expectBody()
				.jsonPath("$.steps[0]")
				.value((step) -> assertThat(step.toString()).startsWith("terminate backend"));
			patch("consumed_fail_over", "?force=true", true).exchange()
				.expectStatus()
				.isOk()
				.expectBody()
				.jsonPath("$.failover")
				.isEqualTo(true);
			assertThat(failover("consumed_fail_over")).isEqualTo("t");
		}
		server().execute(DATABASE, "SELECT pg_drop_replication_slot('consumed_fail_over')");
	}

	@Test
	void aBodyWithoutFailoverIs400AndAPhysicalSlotIs422() {
		createSlot("patched_badly");
		operator().patch()
			.uri("/api/v1/targets/main/slots/patched_badly")
			.contentType(MediaType.APPLICATION_JSON)
			.body(Map.of())
			.exchange()
			.expectStatus()
			.isBadRequest()
			.expectHeader()
			.contentType(MediaType.APPLICATION_PROBLEM_JSON);
		operator().patch()
			.uri("/api/v1/targets/main/slots/patched_badly")
			.contentType(MediaType.APPLICATION_JSON)
			.body(Map.of("failover", true, "plugin", "wal2json"))
			.exchange()
			.expectStatus()
			.isBadRequest();
		server().execute("postgres", "SELECT pg_create_physical_replication_slot('patched_physical')");
		patch("patched_physical", "", true).exchange().expectStatus().isEqualTo(422);
		assertThat(failover("patched_badly")).isNotEqualTo("t");
		server().execute(DATABASE, "SELECT pg_drop_replication_slot('patched_badly')",
				"SELECT pg_drop_replication_slot('patched_physical')");
	}

	private org.springframework.test.web.servlet.client.RestTestClient.RequestHeadersSpec<?> patch(String slot,
			String query, boolean failover) {
		return operator().patch()
			.uri("/api/v1/targets/main/slots/" + slot + query)
			.contentType(MediaType.APPLICATION_JSON)
			.body(Map.of("failover", failover));
	}

	private static String failover(String slot) {
		return server().majorVersion() < 17 ? null : server().queryForString("postgres",
				"SELECT failover FROM pg_replication_slots WHERE slot_name = '" + slot + "'");
	}

}
