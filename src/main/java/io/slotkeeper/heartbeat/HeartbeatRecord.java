package io.slotkeeper.heartbeat;

import java.time.Duration;
import java.time.Instant;

import io.slotkeeper.config.HeartbeatProperties;
import io.slotkeeper.target.FailureDescription;
import io.slotkeeper.target.ServerVersion;

/**
 * The running totals of one target's heartbeat; immutable, replaced after each change so that readers always see one
 * consistent set.
 */
record HeartbeatRecord(Instant lastSuccessAt, String lastLsn, Duration lastDuration, FailureDescription lastError,
		int consecutiveFailures, long emissions, long failures, long connectionAttempts, ServerVersion serverVersion,
		boolean connected, Boolean owner, Instant lastStandbyAt, String standbySnapshot) {

	static final HeartbeatRecord EMPTY = new HeartbeatRecord(null, null, null, null, 0, 0, 0, 0, null, false, null,
			null, null);

	HeartbeatRecord succeeded(String lsn, Instant at, Duration took) {
		return new HeartbeatRecord(at, lsn, took, this.lastError, 0, this.emissions + 1, this.failures,
				this.connectionAttempts, this.serverVersion, this.connected, this.owner, this.lastStandbyAt, this.standbySnapshot);
	}

	HeartbeatRecord failed(FailureDescription failure) {
		return new HeartbeatRecord(this.lastSuccessAt, this.lastLsn, this.lastDuration, failure,
				this.consecutiveFailures + 1, this.emissions, this.failures + 1, this.connectionAttempts,
				this.serverVersion, this.connected, this.owner, this.lastStandbyAt, this.standbySnapshot);
	}

	HeartbeatRecord connectionAttempted() {
		return new HeartbeatRecord(this.lastSuccessAt, this.lastLsn, this.lastDuration, this.lastError,
				this.consecutiveFailures, this.emissions, this.failures, this.connectionAttempts + 1,
				this.serverVersion, this.connected, this.owner, this.lastStandbyAt, this.standbySnapshot);
	}

	HeartbeatRecord connected(ServerVersion version) {
		return new HeartbeatRecord(this.lastSuccessAt, this.lastLsn, this.lastDuration, this.lastError,
				this.consecutiveFailures, this.emissions, this.failures, this.connectionAttempts, version, true, this.owner, this.lastStandbyAt, this.standbySnapshot);
	}

	HeartbeatRecord disconnected() {
		return new HeartbeatRecord(this.lastSuccessAt, this.lastLsn, this.lastDuration, this.lastError,
				this.consecutiveFailures, this.emissions, this.failures, this.connectionAttempts, this.serverVersion,
				false, null, this.lastStandbyAt, this.standbySnapshot);
	}

	HeartbeatRecord owner(boolean owns) {
		return new HeartbeatRecord(this.lastSuccessAt, this.lastLsn, this.lastDuration, this.lastError,
				this.consecutiveFailures, this.emissions, this.failures, this.connectionAttempts, this.serverVersion,
				this.connected, owns, this.lastStandbyAt, this.standbySnapshot);
	}

	HeartbeatRecord standingBy(Instant at) {
		return new HeartbeatRecord(this.lastSuccessAt, this.lastLsn, this.lastDuration, this.lastError, 0,
				this.emissions, this.failures, this.connectionAttempts, this.serverVersion, this.connected, false, at, this.standbySnapshot);
	}

	HeartbeatRecord standbySnapshot(String outcome) {
		return new HeartbeatRecord(this.lastSuccessAt, this.lastLsn, this.lastDuration, this.lastError,
				this.consecutiveFailures, this.emissions, this.failures, this.connectionAttempts, this.serverVersion,
				this.connected, this.owner, this.lastStandbyAt, outcome);
	}

	double lastSuccessEpochSeconds() {
		return (this.lastSuccessAt != null) ? this.lastSuccessAt.toEpochMilli() / 1000.0 : 0;
	}

	/**
	 * The status with its health: UNKNOWN when heartbeats are disabled; DOWN after {@code unhealthy-after}
	 * consecutive failures, or when no heartbeat succeeded for three intervals (counted from start before the first
	 * success); UP otherwise.
	 */
	HeartbeatStatus assess(HeartbeatProperties heartbeat, Instant startedAt, Instant now) {
		if (!heartbeat.enabled()) {
			return toStatus("UNKNOWN", null);
		}
		if (this.consecutiveFailures >= heartbeat.unhealthyAfter()) {
			return toStatus("DOWN", this.consecutiveFailures + " consecutive failures (unhealthy-after is "
					+ heartbeat.unhealthyAfter() + ")");
		}
		Duration stale = heartbeat.interval().multipliedBy(3);
		Instant since = latest(latest(this.lastSuccessAt, this.lastStandbyAt), startedAt);
		if (Duration.between(since, now).compareTo(stale) > 0) {
			return toStatus("DOWN", "no successful heartbeat for more than three intervals (" + stale.toMillis()
					+ " ms)");
		}
		return toStatus("UP", null);
	}

	private static Instant latest(Instant one, Instant other) {
		if (one == null) {
			return other;
		}
		return (other == null || one.isAfter(other)) ? one : other;
	}

	private HeartbeatStatus toStatus(String health, String reason) {
		return new HeartbeatStatus(health, reason, this.lastSuccessAt, this.lastLsn,
				HeartbeatStatus.millis(this.lastDuration), this.lastError, this.consecutiveFailures, this.emissions,
				this.failures, this.connectionAttempts, (this.serverVersion != null) ? this.serverVersion.text() : null,
				this.connected, this.owner, this.standbySnapshot);
	}

}
