package io.slotkeeper.discovery;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;

/**
 * How many sessions slot-keeper may keep open to one server: the configured
 * {@code max-sessions}, else a tenth of what the server gives non-superusers, so that a
 * server of many databases is never filled by its keeper.
 *
 * @param sessions the most sessions at once
 * @param derived whether it was derived from the server's settings rather than configured
 */
record SessionBudget(int sessions, boolean derived) {

	/**
	 * A tenth of the connections left to non-superusers, at least two (one database and
	 * the polling session).
	 * @param maxConnections the server's {@code max_connections}
	 * @param reserved its {@code superuser_reserved_connections}
	 * @return the budget
	 */
	static SessionBudget derived(int maxConnections, int reserved) {
		return new SessionBudget(Math.max(2, (maxConnections - reserved) / 10), true);
	}

	/**
	 * Reads the server's settings and derives the budget from them.
	 * @param connection a session to the server
	 * @return the budget
	 * @throws SQLException when the server refuses
	 */
	static SessionBudget read(Connection connection) throws SQLException {
		try (Statement statement = connection.createStatement();
				ResultSet row = statement.executeQuery("SELECT current_setting('max_connections')::int,"
						+ " current_setting('superuser_reserved_connections')::int")) {
			row.next();
			return derived(row.getInt(1), row.getInt(2));
		}
	}

	/**
	 * How many databases can be targets: every session but the server's own polling
	 * session.
	 * @return the number
	 */
	int databases() {
		return this.sessions - 1;
	}

}
