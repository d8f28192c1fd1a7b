package io.slotkeeper.sessions;

import java.sql.SQLException;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import io.slotkeeper.problem.ProblemException;
import io.slotkeeper.problem.ProblemKind;

/**
 * Turns a node's refusal or failure into the problem an operator expects, from its
 * SQLState: 42501 insufficient privilege (with the REPLICATION hint), 55P03 change in
 * progress, 55006 and 42710 conflict, 42704 no such slot, 0A000 not supported, 08xxx and
 * 57P01 unavailable, 57014 timed out, anything else a database error. The problem carries
 * the SQLState and the server's message, never the query.
 */
public final class TargetProblems {

	private TargetProblems() {
	}

	/**
	 * Maps a failure of a call to a node.
	 * @param node the node called
	 * @param failure what the driver threw
	 * @return the problem to throw
	 */
	public static ProblemException of(Node node, SQLException failure) {
		FailureDescription description = FailureDescription.of(failure, null);
		String state = (description.sqlState() != null) ? description.sqlState() : "";
		String message = description.message();
		ProblemException problem;
		if (state.equals("42501")) {
			return insufficientPrivilege(node, message).with("sqlState", description.sqlState());
		}
		else if (state.equals("55P03")) {
			problem = new ProblemException(ProblemKind.CHANGE_IN_PROGRESS,
					"Another change to the slots of " + node.describe() + " is in progress; try again: " + message);
		}
		else if (state.equals("55006") || state.equals("42710")) {
			problem = new ProblemException(ProblemKind.CONFLICT, message);
		}
		else if (state.equals("42704")) {
			problem = new ProblemException(ProblemKind.SLOT_NOT_FOUND, message);
		}
		else if (state.equals("0A000")) {
			problem = new ProblemException(ProblemKind.NOT_SUPPORTED, message);
		}
		else if (state.startsWith("08") || state.equals("57P01") || (state.equals("25006") && node.primary())) {
			problem = new ProblemException(ProblemKind.TARGET_UNAVAILABLE,
					node.subject() + " is unavailable: " + message);
		}
		else if (state.equals("57014")) {
			problem = new ProblemException(ProblemKind.TARGET_TIMEOUT,
					node.subject() + " did not answer in time: " + message);
		}
		else {
			problem = new ProblemException(ProblemKind.DATABASE_ERROR, message);
		}
		return located(problem, node).with("sqlState", description.sqlState());
	}

	/**
	 * The role slot-keeper logs in as lacks a privilege: the problem names the one the
	 * server's message is about (the REPLICATION attribute for slot changes,
	 * {@code CONNECT} or {@code CREATE} on the database, a schema's, table's, function's
	 * or parameter's), with the statement that grants it.
	 * @param node the node
	 * @param message what the server (or the pre-check) said
	 * @return the problem to throw
	 */
	public static ProblemException insufficientPrivilege(Node node, String message) {
		String role = (node.username() != null) ? node.username() : "<role>";
		String grant = grantFor(message, role);
		return located(
				new ProblemException(ProblemKind.INSUFFICIENT_PRIVILEGE,
						message + ((grant != null) ? ". The role of " + node.describe() + " needs " + grant : "")),
				node);
	}

	private static final Pattern DENIED_FOR = Pattern
		.compile("permission denied for (database|schema|table|relation|sequence|function|procedure) \"?([^\"]+)\"?");

	/**
	 * What grants the privilege a server's 42501 message is about, {@code null} when the
	 * message names its own remedy or none is known.
	 * @param message the server's message
	 * @param role the role slot-keeper logs in as
	 * @return for example
	 * {@code CREATE on database app: GRANT CREATE ON DATABASE app TO keeper;}
	 */
	public static String grantFor(String message, String role) {
		String said = (message == null) ? "" : message;
		if (said.contains("GRANT ")) {
			return null;
		}
		if (said.contains("replication slots") || said.contains("replication role")) {
			return "the REPLICATION attribute to manage slots: ALTER ROLE " + role + " REPLICATION;";
		}
		Matcher denied = DENIED_FOR.matcher(said);
		if (denied.find()) {
			String object = denied.group(2).strip();
			return switch (denied.group(1)) {
				case "database" -> "CONNECT on database " + object + " to log in, and CREATE on it for slot-keeper's"
						+ " own schema (heal ledger, handovers, lineage, WAL-limit raise): GRANT CONNECT, CREATE ON"
						+ " DATABASE " + object + " TO " + role + ";";
				case "schema" ->
					"USAGE on schema " + object + ": GRANT USAGE ON SCHEMA " + object + " TO " + role + ";";
				case "function", "procedure" -> "EXECUTE on " + object + " (a function's privileges are per database):"
						+ " GRANT EXECUTE ON FUNCTION " + object + " TO " + role + ";";
				default -> "the privilege on " + denied.group(1) + " " + object + " that the statement needs (GRANT …"
						+ " ON " + object + " TO " + role + ";)";
			};
		}
		if (said.contains("permission denied to set parameter")) {
			return "the privilege on that parameter: GRANT SET (or ALTER SYSTEM) ON PARAMETER … TO " + role + ";";
		}
		return null;
	}

	private static ProblemException located(ProblemException problem, Node node) {
		return problem.with("target", node.target()).with("node", node.primary() ? null : node.name());
	}

}
