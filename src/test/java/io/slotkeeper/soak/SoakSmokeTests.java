package io.slotkeeper.soak;

import java.time.Duration;
import java.util.EnumSet;
import java.util.List;

import org.junit.jupiter.api.Test;

/**
 * The soak's harness, short: three minutes of faults from a fixed seed on the real pieces (PostgreSQL 17, a Kafka
 * broker and Connect worker with Debezium, two slot-keeper processes), every invariant asserted.
 */
class SoakSmokeTests {

	// Drawn for its mix within three minutes: a lost slot, a killed instance, a stalled network, the primary
	// restarted, a user's stop.
	static final long SEED = 231L;

	@Test
	void threeMinutesOfSeededFaultsLoseNoRowAndHoldEveryInvariant() {
		SoakVerdict verdict = Soak.run(SEED, Duration.ofMinutes(3), List.copyOf(EnumSet.allOf(FaultSchedule.Kind.class)),
				15, 30, System.out);

		verdict.assertInvariants();
	}

}
