package io.slotkeeper.heartbeat;

import java.time.Duration;
import java.time.Instant;

import org.junit.jupiter.api.Test;

import io.slotkeeper.config.HeartbeatProperties;
import io.slotkeeper.target.FailureDescription;

import static io.slotkeeper.testbed.TestTargets.target;
import static org.assertj.core.api.Assertions.assertThat;

class HeartbeatRecordTests {

	private static final Instant START = Instant.parse("2026-11-30T12:00:00Z");

	private final HeartbeatProperties every10s = target("t", "jdbc:postgresql://db/x", "heartbeat.interval", "10s",
			"heartbeat.unhealthy-after", "3").heartbeat();

	private final FailureDescription refused = new FailureDescription("refused", "08001", START);

	@Test
	void upBeforeTheFirstHeartbeatIsDue() {
		assertThat(HeartbeatRecord.EMPTY.assess(this.every10s, START, START.plusSeconds(30)).health()).isEqualTo("UP");
	}

	@Test
	void downWhenNothingSucceededForThreeIntervalsSinceStart() {
		HeartbeatStatus status = HeartbeatRecord.EMPTY.assess(this.every10s, START, START.plusSeconds(31));
		assertThat(status.health()).isEqualTo("DOWN");
		assertThat(status.reason()).contains("three intervals (30000 ms)");
	}

	@Test
	void upWhileTheLastSuccessIsRecentAndFailuresAreFewerThanUnhealthyAfter() {
		HeartbeatRecord record = HeartbeatRecord.EMPTY.succeeded("0/1", START.plusSeconds(10), Duration.ofMillis(2))
			.failed(this.refused)
			.failed(this.refused);
		assertThat(record.assess(this.every10s, START, START.plusSeconds(40)).health()).isEqualTo("UP");
		assertThat(record.assess(this.every10s, START, START.plusSeconds(41)).health()).isEqualTo("DOWN");
	}

	@Test
	void downAtUnhealthyAfterConsecutiveFailuresAndUpAgainAfterASuccess() {
		HeartbeatRecord record = HeartbeatRecord.EMPTY.failed(this.refused).failed(this.refused).failed(this.refused);
		HeartbeatStatus status = record.assess(this.every10s, START, START.plusSeconds(1));
		assertThat(status.health()).isEqualTo("DOWN");
		assertThat(status.reason()).isEqualTo("3 consecutive failures (unhealthy-after is 3)");
		HeartbeatStatus recovered = record.succeeded("0/2", START.plusSeconds(2), Duration.ofMillis(1))
			.assess(this.every10s, START, START.plusSeconds(3));
		assertThat(recovered.health()).isEqualTo("UP");
		assertThat(recovered.failures()).isEqualTo(3);
		assertThat(recovered.lastError()).isEqualTo(this.refused);
	}

	@Test
	void unknownWhenDisabled() {
		HeartbeatProperties disabled = target("t", "jdbc:postgresql://db/x", "heartbeat.enabled", "false").heartbeat();
		assertThat(HeartbeatRecord.EMPTY.failed(this.refused).failed(this.refused).failed(this.refused)
			.assess(disabled, START, START.plusSeconds(3600)).health()).isEqualTo("UNKNOWN");
	}

}
