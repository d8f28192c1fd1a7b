package io.slotkeeper.target;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.SQLNonTransientConnectionException;
import java.time.Duration;
import java.util.Properties;

import org.postgresql.Driver;
import org.postgresql.PGProperty;

import io.slotkeeper.config.HeartbeatProperties;
import io.slotkeeper.config.TargetProperties;

/**
 * Opens connections to a target so that a server that stops answering cannot hold the caller for ever: PgJDBC
 * connect and socket timeouts on the client, {@code statement_timeout}, {@code lock_timeout} and
 * {@code idle_in_transaction_session_timeout} on the server, and {@code application_name=slot-keeper} so that
 * operators see who is connected.
 */
public class TargetConnector {

	/**
	 * The {@code application_name} of every slot-keeper session.
	 */
	public static final String APPLICATION_NAME = "slot-keeper";

	// The socket timeout must outlast the server's statement timeout, so that the server's clear 57014 wins
	// whenever the server still answers.
	private static final Duration SOCKET_MARGIN = Duration.ofSeconds(2);

	private static final String SESSION_SETUP = "SELECT set_config('statement_timeout', ?, false),"
			+ " set_config('lock_timeout', ?, false), set_config('idle_in_transaction_session_timeout', ?, false),"
			+ " current_setting('server_version_num')::int, current_setting('server_version')";

	private final Driver driver = new Driver();

	/**
	 * Opens a session on the target.
	 * @param target the target
	 * @return the open session
	 * @throws SQLException when the target cannot be reached or refuses the session
	 */
	public TargetSession open(TargetProperties target) throws SQLException {
		HeartbeatProperties heartbeat = target.heartbeat();
		Properties properties = new Properties();
		if (target.username() != null) {
			PGProperty.USER.set(properties, target.username());
		}
		if (target.password() != null) {
			PGProperty.PASSWORD.set(properties, target.password().reveal());
		}
		PGProperty.APPLICATION_NAME.set(properties, APPLICATION_NAME);
		int connectSeconds = wholeSeconds(heartbeat.connectTimeout());
		PGProperty.CONNECT_TIMEOUT.set(properties, connectSeconds);
		// Until the session is set up only the handshake runs, so the connect timeout bounds every read.
		PGProperty.SOCKET_TIMEOUT.set(properties, connectSeconds);
		PGProperty.TCP_KEEP_ALIVE.set(properties, true);
		// DriverManager would put the URL, which may hold credentials, into its "no suitable driver" message.
		Connection connection = this.driver.connect(target.url(), properties);
		if (connection == null) {
			throw new SQLNonTransientConnectionException("the URL of target '" + target.name() + "' is not a PgJDBC URL",
					"08001");
		}
		try {
			ServerVersion version = setUpSession(connection, heartbeat.statementTimeout());
			connection.setNetworkTimeout(Runnable::run,
					Math.toIntExact(heartbeat.statementTimeout().plus(SOCKET_MARGIN).toMillis()));
			return new TargetSession(connection, version);
		}
		catch (SQLException | RuntimeException ex) {
			new TargetSession(connection, null).close();
			throw ex;
		}
	}

	private static ServerVersion setUpSession(Connection connection, Duration statementTimeout) throws SQLException {
		String statementMillis = Long.toString(statementTimeout.toMillis());
		String idleMillis = Long.toString(statementTimeout.multipliedBy(2).toMillis());
		try (PreparedStatement statement = connection.prepareStatement(SESSION_SETUP)) {
			statement.setString(1, statementMillis);
			statement.setString(2, statementMillis);
			statement.setString(3, idleMillis);
			try (ResultSet result = statement.executeQuery()) {
				result.next();
				return new ServerVersion(result.getInt(4), result.getString(5));
			}
		}
	}

	private static int wholeSeconds(Duration duration) {
		long seconds = duration.toSeconds() + (duration.toNanosPart() > 0 ? 1 : 0);
		return Math.toIntExact(Math.max(1, seconds));
	}

}
