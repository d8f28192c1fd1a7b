package io.slotkeeper.heartbeat;

import java.time.Duration;
import java.util.Objects;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.slotkeeper.fleet.FailureDescription;

/**
 * Logs one target's heartbeat failures without flooding: a new failure at WARN (with its stack trace when it is not
 * an SQL error), the same failure again at DEBUG, the recovery at INFO.
 */
final class FailureLog {

	private static final Logger logger = LoggerFactory.getLogger(TargetHeartbeat.class);

	private final String target;

	private FailureDescription lastLogged;

	FailureLog(String target) {
		this.target = target;
	}

	void failed(FailureDescription failure, Throwable cause, Duration retry, int consecutiveFailures) {
		FailureDescription previous = this.lastLogged;
		if (previous != null && Objects.equals(previous.sqlState(), failure.sqlState())
				&& Objects.equals(previous.message(), failure.message())) {
			logger.debug("Heartbeat to target '{}' failed again ({} in a row): {}", this.target, consecutiveFailures,
					failure.message());
			return;
		}
		this.lastLogged = failure;
		if (failure.sqlState() != null) {
			logger.warn("Heartbeat to target '{}' failed (SQLState {}): {}; retrying in {} ms", this.target,
					failure.sqlState(), failure.message(), retry.toMillis());
		}
		else {
			logger.warn("Heartbeat to target '{}' failed unexpectedly; retrying in {} ms", this.target,
					retry.toMillis(), cause);
		}
	}

	void succeeded(int failuresBefore) {
		if (failuresBefore > 0) {
			logger.info("Heartbeat to target '{}' succeeds again after {} failures", this.target, failuresBefore);
		}
		this.lastLogged = null;
	}

}
