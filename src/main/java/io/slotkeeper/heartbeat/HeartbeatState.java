package io.slotkeeper.heartbeat;

import java.time.Duration;
import java.time.Instant;

import io.slotkeeper.config.HeartbeatProperties;
import io.slotkeeper.sessions.FailureDescription;

/**
 * The running totals of one target's heartbeat; immutable, replaced after each change by
 * a named transition, so that readers always see one consistent set.
 *
 * @param lastSuccess the last heartbeat written, {@code null} before the first
 * @param lastError the last failure, {@code null} before the first; it stays after a
 * recovery
 * @param consecutiveFailures failures since the last success
 * @param totals counts since start
 * @param connected whether the heartbeat's session is open
 * @param lastStandbyAt when this instance last stood by for another owner
 * @param standbySnapshot what the last {@code pg_log_standby_snapshot()} came to,
 * {@code null} when not asked for
 */
record HeartbeatState(Success lastSuccess, FailureDescription lastError, int consecutiveFailures, Totals totals,
		boolean connected, Instant lastStandbyAt, String standbySnapshot) {

	static final HeartbeatState EMPTY = new HeartbeatState(null, null, 0, new Totals(0, 0, 0), false, null, null);

	HeartbeatState succeeded(String lsn, Instant at, Duration took) {
		return new HeartbeatState(new Success(at, lsn, took), this.lastError, 0, this.totals.emitted(), this.connected,
				this.lastStandbyAt, this.standbySnapshot);
	}

	HeartbeatState failed(FailureDescription failure) {
		return new HeartbeatState(this.lastSuccess, failure, this.consecutiveFailures + 1, this.totals.failed(),
				this.connected, this.lastStandbyAt, this.standbySnapshot);
	}

	HeartbeatState connectionAttempted() {
		return new HeartbeatState(this.lastSuccess, this.lastError, this.consecutiveFailures, this.totals.attempted(),
				this.connected, this.lastStandbyAt, this.standbySnapshot);
	}

	HeartbeatState connected(boolean open) {
		return new HeartbeatState(this.lastSuccess, this.lastError, this.consecutiveFailures, this.totals, open,
				this.lastStandbyAt, this.standbySnapshot);
	}

	HeartbeatState standingBy(Instant at) {
		return new HeartbeatState(this.lastSuccess, this.lastError, 0, this.totals, this.connected, at,
				this.standbySnapshot);
	}

	HeartbeatState standbySnapshot(String outcome) {
		return new HeartbeatState(this.lastSuccess, this.lastError, this.consecutiveFailures, this.totals,
				this.connected, this.lastStandbyAt, outcome);
	}

	double lastSuccessEpochSeconds() {
		return (this.lastSuccess != null) ? this.lastSuccess.at().toEpochMilli() / 1000.0 : 0;
	}

	/**
	 * The status with its health: UNKNOWN when heartbeats are disabled; DOWN after
	 * {@code unhealthy-after} consecutive failures, or when no heartbeat succeeded for
	 * three intervals (counted from start before the first success); UP otherwise.
	 */
	HeartbeatStatus assess(HeartbeatProperties heartbeat, Instant startedAt, Instant now, Facts facts) {
		if (!heartbeat.enabled()) {
			return toStatus("UNKNOWN", null, heartbeat, facts);
		}
		if (this.consecutiveFailures >= heartbeat.unhealthyAfter()) {
			return toStatus("DOWN",
					this.consecutiveFailures + " consecutive failures (unhealthy-after is " + heartbeat.unhealthyAfter()
							+ ")" + ((this.lastError != null) ? ", the last: " + this.lastError.message() : ""),
					heartbeat, facts);
		}
		Duration stale = heartbeat.cadence().staleAfter();
		Instant since = latest(latest((this.lastSuccess != null) ? this.lastSuccess.at() : null, this.lastStandbyAt),
				startedAt);
		if (Duration.between(since, now).compareTo(stale) > 0) {
			return toStatus("DOWN",
					"no successful heartbeat for more than three intervals (" + stale.toMillis() + " ms)", heartbeat,
					facts);
		}
		return toStatus("UP", null, heartbeat, facts);
	}

	private static Instant latest(Instant one, Instant other) {
		if (one == null) {
			return other;
		}
		return (other == null || one.isAfter(other)) ? one : other;
	}

	private HeartbeatStatus toStatus(String health, String reason, HeartbeatProperties heartbeat, Facts facts) {
		Success last = (this.lastSuccess != null) ? this.lastSuccess : new Success(null, null, null);
		return new HeartbeatStatus(health, reason, last.at(), last.lsn(), HeartbeatStatus.millis(last.took()),
				this.lastError, this.consecutiveFailures, this.totals.emissions(), this.totals.failures(),
				this.totals.connectionAttempts(), facts.serverVersion(), this.connected, facts.owner(),
				this.standbySnapshot, heartbeat.enabled() ? WalFloor.describe(heartbeat, this.standbySnapshot) : null);
	}

	/**
	 * A heartbeat written.
	 *
	 * @param at when
	 * @param lsn the LSN it wrote
	 * @param took how long it took, connecting included
	 */
	record Success(Instant at, String lsn, Duration took) {
	}

	/**
	 * Counts since start.
	 *
	 * @param emissions heartbeats written
	 * @param failures heartbeats that failed
	 * @param connectionAttempts sessions opened or tried
	 */
	record Totals(long emissions, long failures, long connectionAttempts) {

		Totals emitted() {
			return new Totals(this.emissions + 1, this.failures, this.connectionAttempts);
		}

		Totals failed() {
			return new Totals(this.emissions, this.failures + 1, this.connectionAttempts);
		}

		Totals attempted() {
			return new Totals(this.emissions, this.failures, this.connectionAttempts + 1);
		}

	}

	/**
	 * What the status shows that the target, not the heartbeat, knows.
	 *
	 * @param serverVersion the primary's version as of its last session, {@code null}
	 * before one
	 * @param owner whether this instance owns the target, {@code null} before the first
	 * try
	 */
	record Facts(String serverVersion, Boolean owner) {
	}

}
