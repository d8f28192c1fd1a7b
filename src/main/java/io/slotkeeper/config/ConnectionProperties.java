package io.slotkeeper.config;

import java.time.Duration;

import jakarta.validation.constraints.NotNull;
import org.hibernate.validator.constraints.time.DurationMax;
import org.hibernate.validator.constraints.time.DurationMin;

import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * How slot-keeper connects to every node of a target: the heartbeat's session and the
 * API's and poller's pools alike.
 *
 * @param connectTimeout longest time to open a connection and complete the PostgreSQL
 * handshake (whole seconds, rounded up; at most 10 minutes)
 * @param statementTimeout longest time one statement may run on the server; the client
 * gives up shortly after it, even if the server stops answering (at most 1 hour)
 */
public record ConnectionProperties(
		@NotNull @DurationMin(millis = 1) @DurationMax(minutes = 10) @DefaultValue("5s") Duration connectTimeout,
		@NotNull @DurationMin(millis = 1) @DurationMax(hours = 1) @DefaultValue("5s") Duration statementTimeout) {

	/**
	 * The longest one statement on a pooled connection can take: borrowing waits up to
	 * twice the connect timeout and a second, then the statement runs.
	 * @return the bound
	 */
	public Duration pooledStatementBound() {
		return this.connectTimeout.multipliedBy(2).plusSeconds(1).plus(this.statementTimeout);
	}

}
