package io.slotkeeper.heartbeat;

import java.time.Duration;
import java.time.Instant;

import org.junit.jupiter.api.Test;

import io.slotkeeper.config.HeartbeatProperties;
import io.slotkeeper.sessions.FailureDescription;

import static io.slotkeeper.testbed.TestTargets.target;
import static org.assertj.core.api.Assertions.assertThat;

class HeartbeatStateTests {

	private static final Instant START = Instant.parse("2026-11-30T12:00:00Z");

	private static final HeartbeatState.Facts FACTS = new HeartbeatState.Facts("17.6", true);

	private final HeartbeatProperties every10s = target("t", "jdbc:postgresql://db/x", "heartbeat.interval", "10s",
			"heartbeat.unhealthy-after", "3")
		.heartbeat();

	private final FailureDescription refused = new FailureDescription("refused", "08001", START);

	@Test
	void upBeforeTheFirstHeartbeatIsDue() {
		assertThat(HeartbeatState.EMPTY.assess(this.every10s, START, START.plusSeconds(30), FACTS).health())
			.isEqualTo("UP");
	}

	@Test
	void downWhenNothingSucceededForThreeIntervalsSinceStart() {
		HeartbeatStatus status = HeartbeatState.EMPTY.assess(this.every10s, START, START.plusSeconds(31), FACTS);
		assertThat(status.health()).isEqualTo("DOWN");
		assertThat(status.reason()).contains("three intervals (30000 ms)");
	}

	@Test
	void upWhileTheLastSuccessIsRecentAndFailuresAreFewerThanUnhealthyAfter() {
		HeartbeatState state = HeartbeatState.EMPTY.succeeded("0/1", START.plusSeconds(10), Duration.ofMillis(2))
			.failed(this.refused)
			.failed(this.refused);
		assertThat(state.assess(this.every10s, START, START.plusSeconds(40), FACTS).health()).isEqualTo("UP");
		assertThat(state.assess(this.every10s, START, START.plusSeconds(41), FACTS).health()).isEqualTo("DOWN");
	}

	@Test
	void downAtUnhealthyAfterConsecutiveFailuresAndUpAgainAfterASuccess() {
		HeartbeatState state = HeartbeatState.EMPTY.failed(this.refused).failed(this.refused).failed(this.refused);
		HeartbeatStatus status = state.assess(this.every10s, START, START.plusSeconds(1), FACTS);
		assertThat(status.health()).isEqualTo("DOWN");
		assertThat(status.reason())
			.isEqualTo("3 consecutive failures (unhealthy-after is 3), the last: " + this.refused.message());
		HeartbeatStatus recovered = state.succeeded("0/2", START.plusSeconds(2), Duration.ofMillis(1))
			.assess(this.every10s, START, START.plusSeconds(3), FACTS);
		assertThat(recovered.health()).isEqualTo("UP");
		assertThat(recovered.failures()).isEqualTo(3);
		assertThat(recovered.emissions()).isEqualTo(1);
		assertThat(recovered.lastLsn()).isEqualTo("0/2");
		assertThat(recovered.lastDurationMillis()).isEqualTo(1.0);
		assertThat(recovered.lastError()).isEqualTo(this.refused);
	}

	@Test
	void standingByForAnotherOwnerIsHealthyAndClearsTheFailureStreak() {
		HeartbeatState state = HeartbeatState.EMPTY.failed(this.refused)
			.failed(this.refused)
			.failed(this.refused)
			.standingBy(START.plusSeconds(60));
		HeartbeatStatus status = state.assess(this.every10s, START, START.plusSeconds(70),
				new HeartbeatState.Facts("17.6", false));
		assertThat(status.health()).isEqualTo("UP");
		assertThat(status.consecutiveFailures()).isZero();
		assertThat(status.owner()).isFalse();
		assertThat(state.assess(this.every10s, START, START.plusSeconds(91), FACTS).health())
			.as("three intervals after standing by, with no success")
			.isEqualTo("DOWN");
	}

	@Test
	void connectionAttemptsAndTheStandbySnapshotOutcomeAreKept() {
		HeartbeatState state = HeartbeatState.EMPTY.connectionAttempted()
			.connected(true)
			.connectionAttempted()
			.standbySnapshot("ok");
		HeartbeatStatus status = state.assess(this.every10s, START, START, FACTS);
		assertThat(status.connectionAttempts()).isEqualTo(2);
		assertThat(status.connected()).isTrue();
		assertThat(status.standbySnapshot()).isEqualTo("ok");
		assertThat(status.serverVersion()).isEqualTo("17.6");
		assertThat(state.connected(false).assess(this.every10s, START, START, FACTS).connected()).isFalse();
	}

	@Test
	void unknownWhenDisabled() {
		HeartbeatProperties disabled = target("t", "jdbc:postgresql://db/x", "heartbeat.enabled", "false").heartbeat();
		assertThat(HeartbeatState.EMPTY.failed(this.refused)
			.failed(this.refused)
			.failed(this.refused)
			.assess(disabled, START, START.plusSeconds(3600), FACTS)
			.health()).isEqualTo("UNKNOWN");
	}

}
