package io.slotkeeper.heartbeat;

import java.time.Duration;
import java.time.Instant;

import io.slotkeeper.sessions.FailureDescription;

/**
 * The result of one heartbeat attempt.
 *
 * @param lsn the LSN written, {@code null} on failure
 * @param at when the attempt ended
 * @param duration how long it took
 * @param failure what went wrong, {@code null} on success
 * @param nextAttemptIn when the schedule should try next: the rest of the interval after
 * a success, the backoff delay after a failure
 */
record HeartbeatOutcome(String lsn, Instant at, Duration duration, FailureDescription failure, Duration nextAttemptIn) {

	boolean succeeded() {
		return this.failure == null;
	}

}
