package io.slotkeeper.heartbeat;

import java.time.Duration;
import java.time.Instant;

import io.slotkeeper.sessions.FailureDescription;

/**
 * What one target's heartbeat has done so far, as of one moment.
 *
 * @param health UP, DOWN, or UNKNOWN when heartbeats are disabled
 * @param reason why the target is DOWN, else {@code null}
 * @param lastSuccessAt when the last heartbeat succeeded, {@code null} before the first
 * @param lastLsn the LSN the last successful heartbeat wrote
 * @param lastDurationMillis how long the last successful heartbeat took, in milliseconds
 * @param lastError the last failure, {@code null} before the first; it stays after a
 * recovery
 * @param consecutiveFailures failures since the last success
 * @param emissions successful heartbeats since start
 * @param failures failed heartbeats since start
 * @param connectionAttempts connections opened or tried since start
 * @param serverVersion the server's version, as of the last connection
 * @param connected whether a session to the target is open
 * @param owner whether this instance owns the target (heartbeats and heals it);
 * {@code false} when another instance does and this one stands by; {@code null} before
 * the first connection
 * @param standbySnapshot {@code ok} while heartbeats log ordered standby snapshots, or
 * why {@code pg_log_standby_snapshot()} is not available, not allowed or refused
 * (heartbeats go on without it); {@code null} when off or before the first session
 * @param walFloor how much WAL an idle slot of this target keeps at least, with a
 * consumer that confirms every heartbeat, and why; {@code null} when heartbeats are
 * disabled
 */
public record HeartbeatStatus(String health, String reason, Instant lastSuccessAt, String lastLsn,
		Double lastDurationMillis, FailureDescription lastError, int consecutiveFailures, long emissions, long failures,
		long connectionAttempts, String serverVersion, boolean connected, Boolean owner, String standbySnapshot,
		String walFloor) {

	static Double millis(Duration duration) {
		return (duration != null) ? duration.toNanos() / 1_000_000.0 : null;
	}

}
