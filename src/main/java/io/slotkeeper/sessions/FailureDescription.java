package io.slotkeeper.sessions;

import java.sql.SQLException;
import java.time.Instant;

import org.postgresql.util.PSQLException;
import org.postgresql.util.ServerErrorMessage;

import io.slotkeeper.problem.ProblemException;

/**
 * A failure as operators see it: one line of text and the SQLState, nothing secret.
 *
 * @param message what went wrong, first line only
 * @param sqlState the SQLState when the failure came from the driver or the server, else
 * {@code null}
 * @param at when it happened
 */
public record FailureDescription(String message, String sqlState, Instant at) {

	/**
	 * Describes a failure. Server errors keep only the server's primary message (no query
	 * text, no detail that could quote data); other exceptions keep their first line.
	 * @param failure the failure
	 * @param at when it happened
	 * @return the description
	 */
	public static FailureDescription of(Throwable failure, Instant at) {
		if (failure instanceof ProblemException problem) {
			Object sqlState = problem.properties().get("sqlState");
			return new FailureDescription(problem.getMessage(), (sqlState != null) ? sqlState.toString() : null, at);
		}
		String sqlState = (failure instanceof SQLException sql) ? sql.getSQLState() : null;
		String message = firstLine(failure);
		String tls = TlsFailures.explain(failure, message);
		return new FailureDescription((tls != null) ? tls : message, sqlState, at);
	}

	/**
	 * Describes a failure in one line, the way {@link #of} does.
	 * @param failure the failure
	 * @return the description's message
	 */
	public static String messageOf(Throwable failure) {
		return of(failure, null).message();
	}

	private static String firstLine(Throwable failure) {
		if (failure instanceof PSQLException psql) {
			ServerErrorMessage server = psql.getServerErrorMessage();
			if (server != null && server.getMessage() != null) {
				return server.getMessage();
			}
		}
		String message = failure.getMessage();
		if (message == null || message.isBlank()) {
			return failure.getClass().getSimpleName();
		}
		if (!(failure instanceof SQLException)) {
			message = failure.getClass().getSimpleName() + ": " + message;
		}
		int newline = message.indexOf('\n');
		return (newline < 0) ? message : message.substring(0, newline);
	}

}
