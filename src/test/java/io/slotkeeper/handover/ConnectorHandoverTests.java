package io.slotkeeper.handover;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Whether a handover's connector will read the new slot, which decides whether the gap's
 * re-snapshot and its deletes are signalled now: a connector whose offsets were set to
 * the new slot reads the signals once it runs, even if it does not run at the handover's
 * end (its user stopped it meanwhile, its task failed again); one whose offsets were not
 * moved may never.
 */
class ConnectorHandoverTests {

	@Test
	void aConnectorAlignedToTheNewSlotReadsItsSignalsOnceItRunsEvenIfItDoesNotRunNow() {
		assertThat(handover("align", false, null, null).readsTheNewSlot()).isTrue();
		assertThat(handover("reset", false, null, null).readsTheNewSlot()).isTrue();
		assertThat(handover("align", true, null, null).readsTheNewSlot()).isTrue();
		assertThat(handover("align", false, null, "stopped").readsTheNewSlot()).isTrue();
	}

	@Test
	void aConnectorWhoseOffsetsWereNotMovedAndDoesNotRunMayNeverReadThem() {
		assertThat(handover("restart", false, null, null).readsTheNewSlot()).isFalse();
		assertThat(handover("align", false, "offsets not changed: 400 the connector is not STOPPED", null)
			.readsTheNewSlot()).isFalse();
	}

	private static ConnectorHandover handover(String method, boolean running, String warning, String leftAs) {
		return new ConnectorHandover("orders-cdc", method, null, running, null, null, null, warning, leftAs, "stopped");
	}

}
