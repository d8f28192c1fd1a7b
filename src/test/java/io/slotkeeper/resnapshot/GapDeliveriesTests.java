package io.slotkeeper.resnapshot;

import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import io.slotkeeper.testbed.PostgresServer;
import io.slotkeeper.testbed.PostgresTestBed;
import io.slotkeeper.testbed.SteppingClock;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What became of a gap's signals, read from the acknowledgements slot-keeper's Debezium
 * extension writes into a real signal table: a signal acknowledged whole is delivered,
 * one refused or emitted in part is not, one never acknowledged is reported as such once
 * the wait is over and never as done, an acknowledgement that is not JSON counts as none
 * done, and signals a slot lost again kept its consumer from reading are handed to the
 * next gap's.
 */
class GapDeliveriesTests {

	private final PostgresServer server = PostgresTestBed.shared();

	private final SimpleMeterRegistry registry = new SimpleMeterRegistry();

	private final SteppingClock clock = new SteppingClock(Instant.parse("2026-12-07T10:00:00Z"));

	private final GapDeliveries deliveries = new GapDeliveries(this.registry, this.clock);

	private String database;

	@BeforeEach
	void signalTable() {
		this.database = this.server.createDatabase();
		this.server.execute(this.database,
				"CREATE TABLE debezium_signal (id varchar(42) PRIMARY KEY, type varchar(32) NOT NULL, data text)");
	}

	@Test
	void onlyWhatTheExtensionAcknowledgedWholeIsDeliveredAndASilentSignalIsReportedOnceTheWaitIsOver() {
		this.deliveries.prime("orders", "debezium");
		this.deliveries.sent(
				"orders", "debezium", "public.debezium_signal", List.of(
						Map.entry(GapSignals.DELETES,
								Map.of("data-collection", "public.orders", "keys",
										List.of(List.of("1"), List.of("2")))),
						Map.entry(
								GapSignals.EVENTS,
								Map.of("data-collection", "public.outbox", "rows",
										List.of(List.of("a"), List.of("b")))),
						Map.entry(GapSignals.DELETES,
								Map.of("data-collection", "public.items", "keys", List.of(List.of("7")))),
						Map.entry(GapSignals.TRUNCATE, Map.of("data-collection", "public.notes"))),
				List.of("s1", "s2", "s3", "s4"), this.clock.instant(), Map.of());
		acknowledge("s1", "{\"signal\": \"s1\", \"emitted\": 2, \"asked\": 2}");
		acknowledge("s2", "{\"signal\": \"s2\", \"emitted\": 0, \"asked\": 0,"
				+ " \"refused\": \"column span is of type int4range\"}");
		acknowledge("s3", "{\"signal\": \"s3\", \"emitted\": 0, \"asked\": 1}");

		assertThat(check()).isEmpty();
		assertThat(this.deliveries.waiting("orders")).isTrue();
		assertThat(this.deliveries.of("orders", "debezium").orElseThrow().described()).containsEntry("public.notes",
				"1 truncates awaiting the extension's acknowledgement");

		this.clock.advance(GapDeliveries.WAIT);
		GapDelivery finished = check().get("debezium");

		assertThat(finished.finished()).isTrue();
		assertThat(finished.delivered()).isFalse();
		assertThat(finished.described()).containsEntry("public.orders", "2 deletes delivered")
			.containsEntry("public.outbox",
					"2 events not delivered: refused by the extension: column span is of type int4range")
			.containsEntry("public.items",
					"1 deletes not delivered: refused by the extension: the extension" + " emitted 0 of 1")
			.hasEntrySatisfying("public.notes", (said) -> assertThat(said)
				.startsWith("1 truncates not acknowledged: no acknowledgement within 10m"));
		assertThat(this.deliveries.waiting("orders")).isFalse();
		assertThat(counted("delivered")).isEqualTo(1);
		assertThat(counted("refused")).isEqualTo(2);
		assertThat(counted("unacknowledged")).isEqualTo(1);
	}

	@Test
	void everySignalAcknowledgedWholeFinishesTheDeliveryAtOnceAndAForgedAcknowledgementIsNoDelivery() {
		this.deliveries.sent("orders", "debezium", "public.debezium_signal",
				List.of(Map.entry(GapSignals.DELETES,
						Map.of("data-collection", "public.orders", "keys", List.of(List.of("1")))),
						Map.entry(GapSignals.EVENTS,
								Map.of("data-collection", "public.outbox", "rows", List.of(List.of("a"))))),
				List.of("s1", "s2"), this.clock.instant(), Map.of());
		acknowledge("s1", "{\"emitted\": 1, \"asked\": 1}");
		acknowledge("s2", "not json");

		GapDelivery finished = check().get("debezium");

		assertThat(finished.delivered()).isFalse();
		assertThat(finished.described()).containsEntry("public.orders", "1 deletes delivered")
			.containsEntry("public.outbox",
					"1 events not delivered: refused by the extension: its acknowledgement could not be read");
	}

	@Test
	void signalsTheSlotWasLostAgainBeforeItsConsumerReadAreHandedToTheNextGapTheAnsweredOnesAsAnswered() {
		Map.Entry<String, Map<String, Object>> truncate = Map.entry(GapSignals.TRUNCATE,
				Map.of("data-collection", "public.notes"));
		this.deliveries.sent("orders", "debezium", "public.debezium_signal",
				List.of(Map.entry(GapSignals.DELETES,
						Map.of("data-collection", "public.orders", "keys", List.of(List.of("1"), List.of("2")))),
						truncate),
				List.of("s1", "s2"), this.clock.instant(), Map.of());
		acknowledge("s1", "{\"emitted\": 2, \"asked\": 2}");

		List<Map.Entry<String, Map<String, Object>>> unanswered = this.deliveries.unanswered("orders", "debezium",
				this::acknowledgements);

		assertThat(unanswered).containsExactly(truncate);
		GapDelivery carried = this.deliveries.of("orders", "debezium").orElseThrow();
		assertThat(carried.finished()).isTrue();
		assertThat(carried.delivered()).isFalse();
		assertThat(carried.described()).containsEntry("public.orders", "2 deletes delivered")
			.containsEntry("public.notes",
					"1 truncates sent again with the next gap's: the slot was lost again before its connector read it");
		assertThat(counted("carried")).isEqualTo(1);
		assertThat(this.deliveries.waiting("orders")).isFalse();
		assertThat(this.deliveries.unanswered("orders", "debezium", this::acknowledgements)).as("handed over once")
			.isEmpty();
	}

	@Test
	void whatWasNotSentIsNeverDeliveredAndSaysWhy() {
		this.deliveries.sent("orders", "debezium", "public.debezium_signal", List.of(), List.of(), this.clock.instant(),
				Map.of("public.orders", "5 deletes listed at …/gap, not delivered: the extension is not installed"));
		GapDelivery listed = this.deliveries.of("orders", "debezium").orElseThrow();
		assertThat(listed.finished()).isTrue();
		assertThat(listed.delivered()).isFalse();
		assertThat(listed.summary()).isEqualTo("not sent: public.orders 5 deletes listed at …/gap, not"
				+ " delivered: the extension is not installed");
		assertThat(this.deliveries.waiting("orders")).isFalse();
	}

	@Test
	void acknowledgementsThatCannotBeReadLeaveTheSignalsUnacknowledgedSayingWhy() {
		this.deliveries.sent("orders", "debezium", "public.missing_signal",
				List.of(Map.entry(GapSignals.TRUNCATE, Map.of("data-collection", "public.notes"))), List.of("s1"),
				this.clock.instant(), Map.of());
		this.clock.advance(GapDeliveries.WAIT);
		GapDelivery finished = check().get("debezium");
		assertThat(finished.described().get("public.notes"))
			.startsWith("1 truncates not acknowledged: its acknowledgements could not be read in"
					+ " public.missing_signal")
			.contains("does not exist");
	}

	private Map<String, GapDelivery> check() {
		return this.deliveries.check("orders", this::acknowledgements);
	}

	private Map<String, tools.jackson.databind.JsonNode> acknowledgements(GapDelivery delivery) {
		try (Connection connection = this.server.connect(this.database)) {
			return GapDeliveries.acknowledgements(connection, delivery);
		}
		catch (SQLException ex) {
			throw new IllegalStateException(ex.getMessage(), ex);
		}
	}

	private void acknowledge(String signal, String data) {
		this.server.execute(this.database, "INSERT INTO debezium_signal VALUES ('ack:" + signal + "', '"
				+ GapDeliveries.ACK + "', '" + data.replace("'", "''") + "')");
	}

	private double counted(String outcome) {
		return this.registry.get("slotkeeper.gap.signals").tag("outcome", outcome).counter().count();
	}

}
