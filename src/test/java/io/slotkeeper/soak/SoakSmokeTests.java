package io.slotkeeper.soak;

import java.time.Duration;
import java.util.Arrays;
import java.util.List;

import io.slotkeeper.soak.FaultSchedule.Fault;
import io.slotkeeper.soak.FaultSchedule.Kind;
import io.slotkeeper.soak.FaultSchedule.Overlap;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The soak's harness, short: every kind of fault once, at short lengths, and an overlap
 * (a user's stop during a loss), on the real pieces (PostgreSQL 17 and its standby, a
 * Kafka broker, a Connect worker with two Debezium connectors, one reached through REST
 * and one through a KafkaConnector resource, two slot-keeper processes), a fixed play
 * list rather than a draw, every invariant asserted and the list it played with them.
 */
@Tag("pipeline")
class SoakSmokeTests {

	// The Strimzi connector's state is read from its resource (status-from: resource), as
	// fresh as the operator's reconcile every 2 minutes: a task of it failed alone would
	// keep the faults after it waiting, so the single task failure is the REST one's, and
	// the faults that fail both tasks (a primary's restart, a switchover) come last.
	static final List<Fault> PLAY_LIST = List.of(Fault.single(1, Kind.SLOT_LOST, 5, 0, 0),
			Fault.overlapping(2, Overlap.USER_STOP_DURING_LOSS, 5, 40, 1), Fault.single(3, Kind.TASK_FAILED, 5, 0, 0),
			Fault.single(4, Kind.USER_STOP, 5, 10, 0), Fault.single(5, Kind.KILL_INSTANCE, 5, 3, 0),
			Fault.single(6, Kind.FREEZE_INSTANCE, 5, 10, 1), Fault.single(7, Kind.WORKER_RESTART, 5, 5, 1),
			Fault.single(8, Kind.NETWORK_STALL, 5, 10, 0), Fault.single(9, Kind.KUBERNETES_API_ERRORS, 5, 11, 0),
			Fault.single(10, Kind.KUBERNETES_API_HANG, 5, 10, 0), Fault.single(11, Kind.PRIMARY_RESTART, 5, 3, 0),
			Fault.single(12, Kind.SWITCHOVER, 5, 20, 0));

	@Test
	void everyKindOfFaultOnceAndAnOverlapLoseNoRowAndHoldEveryInvariant() {
		SoakVerdict verdict = Soak.run(13836L, PLAY_LIST.iterator(), Duration.ofMinutes(15), System.out);

		verdict.assertInvariants();
		assertThat(verdict.played()).as("the faults played, in order")
			.containsExactlyElementsOf(PLAY_LIST.stream().map(Fault::label).toList());
		assertThat(PLAY_LIST.stream().map(Fault::kind).distinct()).as("the kinds the play list covers")
			.containsExactlyInAnyOrderElementsOf(Arrays.asList(Kind.values()));
	}

}
