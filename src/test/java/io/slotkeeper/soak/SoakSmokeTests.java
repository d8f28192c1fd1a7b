package io.slotkeeper.soak;

import java.time.Duration;
import java.util.EnumSet;
import java.util.List;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The soak's harness, short: three minutes of faults from a fixed seed on the real pieces
 * (PostgreSQL 17 and its standby, a Kafka broker, a Connect worker with two Debezium
 * connectors, one reached through REST and one through a KafkaConnector resource, two
 * slot-keeper processes), every invariant asserted.
 */
@Tag("pipeline")
class SoakSmokeTests {

	// Drawn for its mix within three minutes: a slot lost, the user's stop of the
	// Strimzi-managed connector, a
	// switchover to the standby and back (23 s), a killed instance, the Kubernetes API
	// hanging.
	static final long SEED = 13836L;

	@Test
	void threeMinutesOfSeededFaultsLoseNoRowAndHoldEveryInvariant() {
		SoakVerdict verdict = Soak.run(SEED, Duration.ofMinutes(3),
				List.copyOf(EnumSet.allOf(FaultSchedule.Kind.class)), 15, 30, System.out);

		verdict.assertInvariants();
	}

}
