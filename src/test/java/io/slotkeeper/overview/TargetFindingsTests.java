package io.slotkeeper.overview;

import java.time.Duration;
import java.time.Instant;
import java.util.List;

import org.junit.jupiter.api.Test;

import io.slotkeeper.config.TargetProperties;
import io.slotkeeper.fleet.FailureDescription;
import io.slotkeeper.heartbeat.HeartbeatStatus;
import io.slotkeeper.testbed.TestTargets;
import io.slotkeeper.watching.SlotSnapshot;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A target's own findings follow its heartbeat's health, which already knows staleness and standing by, and its
 * slots' last poll.
 */
class TargetFindingsTests {

	private static final Instant NOW = Instant.parse("2026-12-01T12:00:00Z");

	private final TargetProperties target = TestTargets.target("orders", "jdbc:postgresql://db/orders",
			"heartbeat.interval", "10s", "slots-poll-interval", "5s");

	private final SlotSnapshot fresh = new SlotSnapshot(NOW.minusSeconds(2), List.of(), null, NOW.minusSeconds(2));

	@Test
	void anInstanceStandingByWhoseOwnLastBeatIsOldHasNoFinding() {
		HeartbeatStatus standingBy = status("UP", null, NOW.minus(Duration.ofMinutes(10)), false);
		assertThat(TargetFindings.of(this.target, standingBy, this.fresh, NOW)).isEmpty();
	}

	@Test
	void aDownHeartbeatIsDownWithItsReason() {
		HeartbeatStatus down = status("DOWN", "3 consecutive failures (unhealthy-after is 3), the last: refused",
				NOW.minusSeconds(40), true);
		assertThat(TargetFindings.of(this.target, down, this.fresh, NOW)).containsExactly(new Finding(Severity.DOWN,
				"heartbeat DOWN: 3 consecutive failures (unhealthy-after is 3), the last: refused"));
	}

	@Test
	void slotsUnreadUnreadableOrStaleAreSaid() {
		HeartbeatStatus up = status("UP", null, NOW.minusSeconds(1), true);
		assertThat(TargetFindings.of(this.target, up, null, NOW)).extracting(Finding::severity)
			.containsExactly(Severity.UNKNOWN);
		SlotSnapshot failed = new SlotSnapshot(NOW, List.of(), new FailureDescription("refused", "08001", NOW), null);
		assertThat(TargetFindings.of(this.target, up, failed, NOW)).extracting(Finding::text)
			.containsExactly("reading the slots failed: refused");
		SlotSnapshot old = new SlotSnapshot(NOW.minusSeconds(17), List.of(), null, NOW.minusSeconds(17));
		assertThat(TargetFindings.of(this.target, up, old, NOW)).extracting(Finding::text)
			.containsExactly("slots last read 17 s ago: the target is slow to answer");
		SlotSnapshot justInTime = new SlotSnapshot(NOW.minusSeconds(16), List.of(), null, NOW.minusSeconds(16));
		assertThat(TargetFindings.of(this.target, up, justInTime, NOW)).isEmpty();
	}

	private static HeartbeatStatus status(String health, String reason, Instant lastSuccessAt, boolean owner) {
		return new HeartbeatStatus(health, reason, lastSuccessAt, "0/1", 1.0, null, 0, 1, 0, 1, "17.6", true, owner,
				"ok", "about one interval");
	}

}
