package io.slotkeeper.heartbeat;

import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.time.Clock;

import io.slotkeeper.target.FailureDescription;
import io.slotkeeper.target.TargetSession;

/**
 * {@code pg_log_standby_snapshot()} on a primary (PostgreSQL 16+): a running-transactions record that lets standby
 * slots be created and move without waiting for the background writer's, at most every 15 s.
 */
final class StandbySnapshot {

	static final String OK = "ok";

	private StandbySnapshot() {
	}

	/**
	 * Logs a snapshot.
	 * @param session a session on the primary
	 * @param clock the clock for a failure's time
	 * @return {@code ok}, or why not, for the operator
	 */
	static String log(TargetSession session, Clock clock) {
		if (session.version().major() < 16) {
			return "not available: pg_log_standby_snapshot() needs PostgreSQL 16 or later, this server is "
					+ session.version().text();
		}
		try (PreparedStatement statement = session.connection().prepareStatement("SELECT pg_log_standby_snapshot()::text")) {
			statement.execute();
			return OK;
		}
		catch (SQLException ex) {
			return "refused (SQLState " + ex.getSQLState() + "): " + FailureDescription.of(ex, clock.instant()).message()
					+ "; GRANT EXECUTE ON FUNCTION pg_log_standby_snapshot() TO <role> in this database";
		}
	}

}
