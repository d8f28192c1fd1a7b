package io.slotkeeper.target;

import java.sql.SQLException;
import java.time.Instant;

import org.springframework.http.HttpStatus;

import io.slotkeeper.api.ApiException;

/**
 * A target's server refused or failed a call, mapped from its SQLState to the HTTP status an operator expects:
 * 42501 → 403 (with the REPLICATION hint), 55006, 42710 and 55P03 → 409, 42704 → 404, 0A000 → 422, 08xxx and 57P01 → 503,
 * 57014 → 504, anything else → 502. The problem carries the SQLState and the server's message, never the query.
 */
public class TargetSqlException extends ApiException {

	private TargetSqlException(HttpStatus status, String slug, String title, String detail) {
		super(status, slug, title, detail);
	}

	/**
	 * Maps a failure of a call to a target.
	 * @param target the target's name
	 * @param role the role slot-keeper logs in as, named in the privilege hint
	 * @param failure what the driver threw
	 * @return the exception to throw
	 */
	public static TargetSqlException of(String target, String role, SQLException failure) {
		FailureDescription description = FailureDescription.of(failure, Instant.now());
		String state = (description.sqlState() != null) ? description.sqlState() : "";
		String message = description.message();
		TargetSqlException exception;
		if (state.equals("42501")) {
			exception = new TargetSqlException(HttpStatus.FORBIDDEN, "insufficient-privilege", "Insufficient privilege",
					message + ". The role of target '" + target + "' needs the REPLICATION attribute to manage slots: "
							+ "ALTER ROLE " + ((role != null) ? role : "<role>") + " REPLICATION;");
		}
		else if (state.equals("55P03")) {
			exception = new TargetSqlException(HttpStatus.CONFLICT, "change-in-progress", "Change in progress",
					"Another change to the slots of target '" + target + "' is in progress; try again: " + message);
		}
		else if (state.equals("55006") || state.equals("42710")) {
			exception = new TargetSqlException(HttpStatus.CONFLICT, "conflict", "Conflict", message);
		}
		else if (state.equals("42704")) {
			exception = new TargetSqlException(HttpStatus.NOT_FOUND, "slot-not-found", "Unknown slot", message);
		}
		else if (state.equals("0A000")) {
			exception = new TargetSqlException(HttpStatus.UNPROCESSABLE_CONTENT, "not-supported",
					"Not supported by this server", message);
		}
		else if (state.startsWith("08") || state.equals("57P01")) {
			exception = new TargetSqlException(HttpStatus.SERVICE_UNAVAILABLE, "target-unavailable",
					"Target unavailable", "Target '" + target + "' is unavailable: " + message);
		}
		else if (state.equals("57014")) {
			exception = new TargetSqlException(HttpStatus.GATEWAY_TIMEOUT, "target-timeout", "Target timed out",
					"Target '" + target + "' did not answer in time: " + message);
		}
		else {
			exception = new TargetSqlException(HttpStatus.BAD_GATEWAY, "database-error", "Database error", message);
		}
		exception.with("target", target);
		exception.with("sqlState", description.sqlState());
		return exception;
	}

}
