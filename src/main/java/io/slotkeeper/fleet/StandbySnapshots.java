package io.slotkeeper.fleet;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;

/**
 * {@code pg_log_standby_snapshot()} on a primary (PostgreSQL 16+): a running-transactions
 * record, which a standby needs before it can create a logical slot or move one, without
 * waiting for the background writer's (at most every 15 s). Needs superuser or an
 * explicit GRANT in the database of the session.
 */
public final class StandbySnapshots {

	private StandbySnapshots() {
	}

	/**
	 * Logs a snapshot.
	 * @param primary a session on the primary
	 * @throws SQLException when the server refuses (42501 without the privilege, 42883
	 * before 16)
	 */
	public static void log(Connection primary) throws SQLException {
		try (PreparedStatement statement = primary
			.prepareStatement("SELECT pg_catalog.pg_log_standby_snapshot()::text")) {
			statement.execute();
		}
	}

}
