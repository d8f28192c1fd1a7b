package io.slotkeeper.config;

import java.time.Duration;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Every rule derived from the heartbeat interval, at a short, the default and a long
 * interval: the bounds hold at both ends, and the bound values are what the health, the
 * sessions and ownership were built on.
 */
class HeartbeatCadenceTests {

	private static final HeartbeatCadence SHORT = new HeartbeatCadence(Duration.ofMillis(500));

	private static final HeartbeatCadence DEFAULT = new HeartbeatCadence(Duration.ofSeconds(10));

	private static final HeartbeatCadence LONG = new HeartbeatCadence(Duration.ofMinutes(10));

	@Test
	void secondsAreWholeAndAtLeastOne() {
		assertThat(SHORT.seconds()).isEqualTo(1);
		assertThat(DEFAULT.seconds()).isEqualTo(10);
		assertThat(LONG.seconds()).isEqualTo(600);
	}

	@Test
	void beatsAreStaleAfterThreeIntervalsAndASessionIdlesTwoIntervalsAStatementAndASecond() {
		assertThat(DEFAULT.staleAfter()).isEqualTo(Duration.ofSeconds(30));
		assertThat(DEFAULT.sessionIdle(Duration.ofSeconds(5))).isEqualTo(Duration.ofSeconds(26));
		assertThat(SHORT.sessionIdle(Duration.ofSeconds(5))).isEqualTo(Duration.ofSeconds(7));
	}

	@Test
	void theInstancesUpAreReadAgainEveryTwoIntervalsBetweenTenSecondsAndFiveMinutes() {
		assertThat(SHORT.presenceRefresh()).isEqualTo(Duration.ofSeconds(10));
		assertThat(DEFAULT.presenceRefresh()).isEqualTo(Duration.ofSeconds(20));
		assertThat(LONG.presenceRefresh()).isEqualTo(Duration.ofMinutes(5));
		assertThat(DEFAULT.ownerRecheck()).isEqualTo(Duration.ofSeconds(20));
		assertThat(DEFAULT.ownerGoneAfter(Duration.ofSeconds(26))).isEqualTo(Duration.ofSeconds(36));
	}

	@Test
	void theSnapshotWaitsHalfAnIntervalAtMostItsLongestAndTheFirstBeatsSpreadOverAnIntervalAtMostTenSeconds() {
		assertThat(DEFAULT.standbySnapshotWait(Duration.ofSeconds(30))).isEqualTo(Duration.ofSeconds(5));
		assertThat(LONG.standbySnapshotWait(Duration.ofSeconds(30))).isEqualTo(Duration.ofSeconds(30));
		assertThat(SHORT.firstBeatSpread()).isEqualTo(Duration.ofMillis(500));
		assertThat(LONG.firstBeatSpread()).isEqualTo(Duration.ofSeconds(10));
	}

	@Test
	void lineageIsSampledEverySixBeatsAndABeatIsAcknowledgedWithinTheGivenIntervals() {
		assertThat(DEFAULT.lineageEvery()).isEqualTo(Duration.ofMinutes(1));
		assertThat(DEFAULT.acknowledgedWithin(3)).isEqualTo(Duration.ofSeconds(30));
	}

}
