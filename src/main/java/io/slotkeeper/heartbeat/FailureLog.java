package io.slotkeeper.heartbeat;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.slf4j.event.Level;

import io.slotkeeper.sessions.FailureDescription;
import io.slotkeeper.support.Events;

/**
 * Logs one target's heartbeat failures without flooding: a new failure at WARN (with its
 * stack trace when it is not an SQL error), the same failure again at DEBUG, the recovery
 * at INFO; the target going DOWN (at {@code unhealthy-after} failures) and UP again are
 * events ({@code heartbeat.down}, {@code heartbeat.up}).
 */
final class FailureLog {

	private static final Logger logger = LoggerFactory.getLogger(FailureLog.class);

	private final String target;

	private final int unhealthyAfter;

	private FailureDescription lastLogged;

	FailureLog(String target, int unhealthyAfter) {
		this.target = target;
		this.unhealthyAfter = unhealthyAfter;
	}

	void failed(FailureDescription failure, Throwable cause, Duration retry, int consecutiveFailures) {
		if (consecutiveFailures == this.unhealthyAfter) {
			Events.log(logger, Level.WARN, "heartbeat.down", fields(consecutiveFailures, failure),
					"Heartbeat of target '{}' is DOWN: {} consecutive failures, the last: {}", this.target,
					consecutiveFailures, failure.message());
		}
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
		if (failuresBefore >= this.unhealthyAfter) {
			Events.log(logger, Level.INFO, "heartbeat.up", fields(failuresBefore, null),
					"Heartbeat of target '{}' is UP again after {} failures", this.target, failuresBefore);
		}
		else if (failuresBefore > 0) {
			logger.info("Heartbeat to target '{}' succeeds again after {} failures", this.target, failuresBefore);
		}
		this.lastLogged = null;
	}

	private Map<String, Object> fields(int failures, FailureDescription failure) {
		Map<String, Object> fields = new LinkedHashMap<>();
		fields.put(Events.TARGET, this.target);
		fields.put("slotkeeper.failures", failures);
		if (failure != null) {
			fields.put("error.message", failure.message());
			fields.put("slotkeeper.sql_state", failure.sqlState());
		}
		return fields;
	}

}
