package io.slotkeeper.slot.changing;

import java.time.Instant;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import io.slotkeeper.audit.Happening;
import io.slotkeeper.handover.CompletedHandover;
import io.slotkeeper.handover.ConnectorHandover;
import io.slotkeeper.resnapshot.GapDelivery;
import io.slotkeeper.resnapshot.Resnapshot;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What each way a handover ends is told as: its reason, its type, and the words a user
 * reads in {@code oc describe}.
 */
class SlotHappeningsTests {

	@Test
	void aHandoverIsStartedCompletedLeftAsItsUserChoseOrFailedAndOnlyTheFailureIsAWarning() {
		assertThat(told(handover(ConnectorHandover.PENDING, false, null, null)))
			.isEqualTo("Normal HandoverStarted: Connector orders-cdc is handed over to the new slot once Kafka Connect"
					+ " answers: orders-cdc: pending, not running (state unknown).");
		assertThat(told(handover("align", true, null, null)))
			.isEqualTo("Normal HandoverCompleted: Connector orders-cdc was handed over (align) and runs.");
		assertThat(told(handover("align", false, "stopped", null))).isEqualTo(
				"Normal HandoverLeftAsChosen: Connector orders-cdc was handed over (align) and left stopped as its"
						+ " user had it.");
		assertThat(told(handover("align", false, null, null))).isEqualTo(
				"Warning HandoverFailed: Connector orders-cdc does not run after the handover: orders-cdc: align,"
						+ " not running (state unknown).");
		assertThat(told(handover("align", true, null, "offsets not changed: it has no stored offsets")))
			.as("running, with what did not go as configured")
			.isEqualTo("Warning HandoverCompleted: Connector orders-cdc was handed over (align) and runs; offsets not"
					+ " changed: it has no stored offsets.");
	}

	@Test
	void aCompletedHandoverSaysWhatIsReadAgainAndTheGapsDeletes() {
		Resnapshot resnapshot = new Resnapshot("42", List.of("public.orders"), Instant.EPOCH, null, null,
				Map.of("public.orders", "5 deletes signalled (1 slotkeeper-gap-deletes signal)"));

		Happening happening = SlotHappenings.handedOver("orders", new CompletedHandover("cdc", 1L, Instant.EPOCH,
				"Kafka Connect came back", handover("align", true, null, null), resnapshot));

		assertThat(happening.note()).isEqualTo("Connector orders-cdc was handed over (align) and runs; re-read"
				+ " public.orders; deletes {public.orders=5 deletes signalled (1 slotkeeper-gap-deletes signal)}.");
		assertThat(happening.slot()).isEqualTo("cdc");
	}

	@Test
	void aGapNotAllDeliveredIsAWarningThatPointsAtTheListedKeys() {
		GapDelivery notSent = new GapDelivery(Instant.EPOCH, "public.debezium_signal", List.of(), true,
				Map.of("public.orders", "5 deletes not sent: the extension is not installed"));

		Happening happening = SlotHappenings.gapDelivered("orders", "cdc", notSent);

		assertThat(happening.warning()).isTrue();
		assertThat(happening.reason()).isEqualTo("GapNotDelivered");
		assertThat(happening.note()).contains("listed at …/gap").contains("the extension is not installed");
	}

	private static ConnectorHandover handover(String method, boolean running, String leftAs, String warning) {
		return new ConnectorHandover("orders-cdc", method, null, running, List.of(), List.of(), null, warning, leftAs,
				null);
	}

	private static String told(ConnectorHandover handover) {
		Happening happening = SlotHappenings.handedOver("orders",
				new CompletedHandover("cdc", null, Instant.EPOCH, "Kafka Connect came back", handover, null));
		return (happening.warning() ? "Warning " : "Normal ") + happening.reason() + ": " + happening.note();
	}

}
