package io.slotkeeper.overview;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

import org.junit.jupiter.api.Test;

import io.slotkeeper.config.TargetProperties;
import io.slotkeeper.heartbeat.HeartbeatStatus;
import io.slotkeeper.lanes.LaneWatch;
import io.slotkeeper.sessions.FailureDescription;
import io.slotkeeper.settings.RaisedLimit;
import io.slotkeeper.testbed.TestTargets;
import io.slotkeeper.watching.SlotSnapshot;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A target's own findings follow its heartbeat's health, which already knows staleness
 * and standing by, and its slots' last poll.
 */
class TargetFindingsTests {

	private static final Instant NOW = Instant.parse("2026-12-01T12:00:00Z");

	private final TargetProperties target = TestTargets.target("orders", "jdbc:postgresql://db/orders",
			"heartbeat.interval", "10s", "slots-poll-interval", "5s");

	private final SlotSnapshot fresh = new SlotSnapshot(NOW.minusSeconds(2), List.of(), null, NOW.minusSeconds(2));

	@Test
	void anInstanceStandingByWhoseOwnLastBeatIsOldHasNoFinding() {
		HeartbeatStatus standingBy = status("UP", null, NOW.minus(Duration.ofMinutes(10)), false);
		assertThat(TargetFindings.of(this.target, standingBy, this.fresh, List.of(), Optional.empty(), NOW)).isEmpty();
	}

	@Test
	void aDownHeartbeatIsDownWithItsReason() {
		HeartbeatStatus down = status("DOWN", "3 consecutive failures (unhealthy-after is 3), the last: refused",
				NOW.minusSeconds(40), true);
		assertThat(TargetFindings.of(this.target, down, this.fresh, List.of(), Optional.empty(), NOW))
			.containsExactly(new Finding(Severity.DOWN,
					"heartbeat DOWN: 3 consecutive failures (unhealthy-after is 3), the last: refused"));
	}

	@Test
	void slotsUnreadUnreadableOrStaleAreSaid() {
		HeartbeatStatus up = status("UP", null, NOW.minusSeconds(1), true);
		assertThat(TargetFindings.of(this.target, up, null, List.of(), Optional.empty(), NOW))
			.extracting(Finding::severity)
			.containsExactly(Severity.UNKNOWN);
		SlotSnapshot failed = new SlotSnapshot(NOW, List.of(), new FailureDescription("refused", "08001", NOW), null);
		assertThat(TargetFindings.of(this.target, up, failed, List.of(), Optional.empty(), NOW))
			.extracting(Finding::text)
			.containsExactly("reading the slots failed: refused");
		SlotSnapshot old = new SlotSnapshot(NOW.minusSeconds(17), List.of(), null, NOW.minusSeconds(17));
		assertThat(TargetFindings.of(this.target, up, old, List.of(), Optional.empty(), NOW)).extracting(Finding::text)
			.containsExactly("slots last read 17 s ago: the target is slow to answer");
		SlotSnapshot justInTime = new SlotSnapshot(NOW.minusSeconds(16), List.of(), null, NOW.minusSeconds(16));
		assertThat(TargetFindings.of(this.target, up, justInTime, List.of(), Optional.empty(), NOW)).isEmpty();
	}

	@Test
	void aRoundPastItsBoundAndARaiseNoConsumerNeedsAreSaid() {
		HeartbeatStatus up = status("UP", null, NOW.minusSeconds(1), true);
		LaneWatch.Overdue hung = new LaneWatch.Overdue("keep-size", "orders", NOW.minusSeconds(130),
				Duration.ofSeconds(120), Duration.ofSeconds(130), "java.net.SocketInputStream.read");
		RaisedLimit needed = new RaisedLimit(1, 32, List.of("cdc"), NOW.minusSeconds(600), null, null);
		assertThat(TargetFindings.of(this.target, up, this.fresh, List.of(hung), Optional.of(needed), NOW))
			.containsExactly(new Finding(Severity.WARNING, "a round of lane keep-size has not finished after 130 s"
					+ " (its bound is 120 s): interrupted, the lane goes on without it"));
		RaisedLimit unneeded = new RaisedLimit(1, 32, List.of("cdc"), NOW.minusSeconds(600), NOW.minusSeconds(60),
				"slot abandoned retains less");
		assertThat(TargetFindings.of(this.target, up, this.fresh, List.of(), Optional.of(unneeded), NOW))
			.singleElement()
			.satisfies((finding) -> {
				assertThat(finding.severity()).isEqualTo(Severity.WARNING);
				assertThat(finding.text()).isEqualTo("max_slot_wal_keep_size raised to 32MB 10 min ago: no consumer has"
						+ " needed it for 60 s and it is not put back yet: the put-back waits until slot abandoned"
						+ " retains less");
			});
		RaisedLimit stuck = new RaisedLimit(1, 32, List.of("cdc"), NOW.minusSeconds(600), NOW.minusSeconds(301), null);
		assertThat(TargetFindings.of(this.target, up, this.fresh, List.of(), Optional.of(stuck), NOW))
			.extracting(Finding::severity)
			.containsExactly(Severity.DOWN);
	}

	private static HeartbeatStatus status(String health, String reason, Instant lastSuccessAt, boolean owner) {
		return new HeartbeatStatus(health, reason, lastSuccessAt, "0/1", 1.0, null, 0, 1, 0, 1, "17.6", true, owner,
				"ok", "about one interval");
	}

}
