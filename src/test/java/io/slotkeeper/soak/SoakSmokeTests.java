package io.slotkeeper.soak;

import java.time.Duration;
import java.util.EnumSet;
import java.util.List;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

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

		assertThat(verdict.missing()).as("rows missing from the topic").isZero();
		assertThat(verdict.stale()).as("keys whose last state is not the database's").isZero();
		assertThat(verdict.lostDeletes()).as("deletes lost in gaps, against the most slot-keeper reported")
			.isLessThanOrEqualTo((int) verdict.reportedGapDeletes());
		assertThat(verdict.mostOwners()).as("owners of the target at once").isLessThanOrEqualTo(1);
		assertThat(verdict.userStopsBroken()).as("a user's stop undone").isZero();
		assertThat(verdict.connectorState()).isEqualTo("RUNNING");
		assertThat(verdict.wholeAgainMillis().values()).as("every fault's rows arrived")
			.allSatisfy((times) -> assertThat(times).allMatch((millis) -> millis < Long.MAX_VALUE));
	}

}
