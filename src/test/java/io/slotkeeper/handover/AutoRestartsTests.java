package io.slotkeeper.handover;

import java.time.Instant;
import java.util.List;

import org.junit.jupiter.api.Test;

import io.slotkeeper.connect.ConnectorStatus;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A handover during which the Strimzi operator restarted the connector on its own says
 * so, with the count before and after; one that left the count as it was, or a connector
 * without one, says nothing.
 */
class AutoRestartsTests {

	private static ConnectorHandover handover(boolean running, String warning) {
		ConnectorStatus state = new ConnectorStatus("orders-cdc", running ? "RUNNING" : "FAILED", List.of(), null,
				Instant.now());
		return new ConnectorHandover("orders-cdc", "align", null, running, List.of(), List.of(), state, warning, null,
				"stopped");
	}

	@Test
	void aCountThatRoseDuringTheHandoverIsSaidWithItsValuesAndWhy() {
		ConnectorHandover said = AutoRestarts.compared(handover(true, null), 0, 1);
		assertThat(said.warning()).contains("restarted it on its own 1 time(s)")
			.contains("status.autoRestart.count 0 -> 1")
			.contains("before slot-keeper stopped it");
		assertThat(AutoRestarts.compared(handover(false, "offsets not changed"), 2, 4).warning())
			.startsWith("offsets not changed; ")
			.contains("2 time(s)")
			.contains("FAILED again after the handover");
	}

	@Test
	void aCountAsItWasOrResetOrUnknownSaysNothing() {
		assertThat(AutoRestarts.compared(handover(true, null), 1, 1).warning()).isNull();
		assertThat(AutoRestarts.compared(handover(true, null), 3, 0).warning()).as("the operator's reset").isNull();
		assertThat(AutoRestarts.compared(handover(true, null), null, null).warning()).as("REST").isNull();
	}

}
