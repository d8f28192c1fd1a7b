package io.slotkeeper.sessions;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;

/**
 * How long the server lets a session stay silent before it ends it: TCP keepalives for a
 * peer whose network is gone, and from PostgreSQL 14 {@code idle_session_timeout} for one
 * whose process is frozen (which the kernel keeps answering keepalives for).
 */
public final class SessionSilence {

	private static final int KEEPALIVE_INTERVAL_SECONDS = 2;

	private static final int KEEPALIVE_COUNT = 3;

	private SessionSilence() {
	}

	/**
	 * Lets a session opened with {@link NodeConnector#open(Node, Duration)} stay silent
	 * for longer before the server ends it.
	 * @param session the session
	 * @param idle how long it may stay idle from now on
	 * @throws SQLException when the server refuses or does not answer in time
	 */
	public static void allow(NodeSession session, Duration idle) throws SQLException {
		set(session.connection(), session.version(), idle);
	}

	// The settings that end a silent session, in one round trip that also tells which
	// server session ran it.
	static int set(Connection connection, ServerVersion version, Duration idle) throws SQLException {
		boolean idleTimeout = version.major() >= 14;
		try (PreparedStatement statement = connection.prepareStatement(
				"SELECT pg_catalog.pg_backend_pid()," + " pg_catalog.set_config('tcp_keepalives_idle', ?, false),"
						+ " pg_catalog.set_config('tcp_keepalives_interval', ?, false),"
						+ " pg_catalog.set_config('tcp_keepalives_count', ?, false)"
						+ (idleTimeout ? ", pg_catalog.set_config('idle_session_timeout', ?, false)" : ""))) {
			statement.setString(1, Integer.toString(NodeLogin.wholeSeconds(idle)));
			statement.setString(2, Integer.toString(KEEPALIVE_INTERVAL_SECONDS));
			statement.setString(3, Integer.toString(KEEPALIVE_COUNT));
			if (idleTimeout) {
				statement.setString(4, Long.toString(idle.toMillis()));
			}
			try (ResultSet result = statement.executeQuery()) {
				result.next();
				return result.getInt(1);
			}
		}
	}

}
