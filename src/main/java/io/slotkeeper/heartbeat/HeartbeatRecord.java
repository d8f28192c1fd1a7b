package io.slotkeeper.heartbeat;

import java.time.Duration;
import java.time.Instant;

import io.slotkeeper.target.FailureDescription;
import io.slotkeeper.target.ServerVersion;

/**
 * The running totals of one target's heartbeat; immutable, replaced after each change so that readers always see one
 * consistent set.
 */
record HeartbeatRecord(Instant lastSuccessAt, String lastLsn, Duration lastDuration, FailureDescription lastError,
		int consecutiveFailures, long emissions, long failures, long connectionAttempts, ServerVersion serverVersion,
		boolean connected) {

	static final HeartbeatRecord EMPTY = new HeartbeatRecord(null, null, null, null, 0, 0, 0, 0, null, false);

	HeartbeatRecord succeeded(String lsn, Instant at, Duration took) {
		return new HeartbeatRecord(at, lsn, took, this.lastError, 0, this.emissions + 1, this.failures,
				this.connectionAttempts, this.serverVersion, this.connected);
	}

	HeartbeatRecord failed(FailureDescription failure) {
		return new HeartbeatRecord(this.lastSuccessAt, this.lastLsn, this.lastDuration, failure,
				this.consecutiveFailures + 1, this.emissions, this.failures + 1, this.connectionAttempts,
				this.serverVersion, this.connected);
	}

	HeartbeatRecord connectionAttempted() {
		return new HeartbeatRecord(this.lastSuccessAt, this.lastLsn, this.lastDuration, this.lastError,
				this.consecutiveFailures, this.emissions, this.failures, this.connectionAttempts + 1,
				this.serverVersion, this.connected);
	}

	HeartbeatRecord connected(ServerVersion version) {
		return new HeartbeatRecord(this.lastSuccessAt, this.lastLsn, this.lastDuration, this.lastError,
				this.consecutiveFailures, this.emissions, this.failures, this.connectionAttempts, version, true);
	}

	HeartbeatRecord disconnected() {
		return new HeartbeatRecord(this.lastSuccessAt, this.lastLsn, this.lastDuration, this.lastError,
				this.consecutiveFailures, this.emissions, this.failures, this.connectionAttempts, this.serverVersion,
				false);
	}

	double lastSuccessEpochSeconds() {
		return (this.lastSuccessAt != null) ? this.lastSuccessAt.toEpochMilli() / 1000.0 : 0;
	}

	HeartbeatStatus toStatus(String health, String reason) {
		return new HeartbeatStatus(health, reason, this.lastSuccessAt, this.lastLsn,
				HeartbeatStatus.millis(this.lastDuration), this.lastError, this.consecutiveFailures, this.emissions,
				this.failures, this.connectionAttempts, (this.serverVersion != null) ? this.serverVersion.text() : null,
				this.connected);
	}

}
