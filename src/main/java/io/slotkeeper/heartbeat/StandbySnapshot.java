package io.slotkeeper.heartbeat;

import java.sql.SQLException;
import java.time.Instant;

import io.slotkeeper.fleet.FailureDescription;
import io.slotkeeper.fleet.NodeSession;
import io.slotkeeper.fleet.StandbySnapshots;

/**
 * The heartbeat's {@code standby-snapshot} option: a {@link StandbySnapshots standby snapshot} after each heartbeat,
 * or why the server will not log one, for the operator.
 */
final class StandbySnapshot {

	static final String OK = "ok";

	private StandbySnapshot() {
	}

	/**
	 * Logs a snapshot.
	 * @param session a session on the primary
	 * @return {@code ok}, or why not, for the operator
	 */
	static String log(NodeSession session) {
		if (session.version().major() < 16) {
			return "not available: pg_log_standby_snapshot() needs PostgreSQL 16 or later, this server is "
					+ session.version().text();
		}
		try {
			StandbySnapshots.log(session.connection());
			return OK;
		}
		catch (SQLException ex) {
			return "refused (SQLState " + ex.getSQLState() + "): " + FailureDescription.of(ex, Instant.now()).message()
					+ "; GRANT EXECUTE ON FUNCTION pg_log_standby_snapshot() TO <role> in this database";
		}
	}

}
