package io.slotkeeper.fleet;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.SQLNonTransientConnectionException;
import java.sql.Timestamp;
import java.time.Duration;
import java.util.Properties;

import org.postgresql.Driver;
import org.postgresql.PGProperty;

import io.slotkeeper.config.ConnectionProperties;

/**
 * Opens connections to a node so that a server that stops answering cannot hold the caller for ever: PgJDBC connect
 * and socket timeouts on the client, {@code statement_timeout}, {@code lock_timeout} and
 * {@code idle_in_transaction_session_timeout} on the server, and {@code application_name=slot-keeper} so that
 * operators see who is connected. Every session tells the node which server answered.
 */
public class NodeConnector {

	/**
	 * The {@code application_name} of every slot-keeper session.
	 */
	public static final String APPLICATION_NAME = "slot-keeper";

	// The socket timeout must outlast the server's statement timeout, so that the server's clear 57014 wins
	// whenever the server still answers.
	static final Duration SOCKET_MARGIN = Duration.ofSeconds(2);

	/**
	 * The {@code search_path} of every slot-keeper session: only the system catalog and the session's own temporary
	 * schema, so that no function, operator or table a database's owner creates elsewhere is ever resolved in place
	 * of PostgreSQL's own (CVE-2018-1058).
	 */
	public static final String SEARCH_PATH = "pg_catalog, pg_temp";

	/**
	 * A utility statement with no function or operator to resolve: it cannot be hijacked by whatever search_path the
	 * URL, the database or the role set.
	 */
	public static final String SET_SEARCH_PATH = "SET search_path = " + SEARCH_PATH;

	// Every name in it is qualified, so it resolves the same whatever search_path the URL, the database or the role set;
	// its first column sets slot-keeper's own for everything after it, in the round trip the session set-up takes anyway.
	private static final String SESSION_SETUP = "SELECT pg_catalog.set_config('search_path', '" + SEARCH_PATH
			+ "', false), pg_catalog.set_config('statement_timeout', ?, false),"
			+ " pg_catalog.set_config('lock_timeout', ?, false),"
			+ " pg_catalog.set_config('idle_in_transaction_session_timeout', ?, false),"
			+ " pg_catalog.current_setting('server_version_num')::int, pg_catalog.current_setting('server_version'),"
			+ " pg_catalog.inet_server_addr()::pg_catalog.text, pg_catalog.inet_server_port(),"
			+ " pg_catalog.pg_postmaster_start_time(), pg_catalog.pg_is_in_recovery(),"
			+ " pg_catalog.has_function_privilege('pg_catalog.pg_control_checkpoint()', 'EXECUTE')"
			+ " AND pg_catalog.has_function_privilege('pg_catalog.pg_control_system()', 'EXECUTE'),"
			+ " pg_catalog.pg_backend_pid()";

	// A separate statement: the server checks a function's privilege when it plans the call, even one a CASE skips.
	// A promoted standby writes on its new timeline before its first checkpoint names it: a primary's timeline is
	// read from the name of its current WAL file, a standby's from its last restartpoint.
	private static final String CONTROL_FILE = "SELECT CASE WHEN pg_catalog.pg_is_in_recovery()"
			+ " THEN (SELECT timeline_id FROM pg_catalog.pg_control_checkpoint())::bigint"
			+ " ELSE ('x' || pg_catalog.substr(pg_catalog.pg_walfile_name(pg_catalog.pg_current_wal_lsn()), 1, 8))"
			+ "::bit(32)::bigint END, (SELECT system_identifier FROM pg_catalog.pg_control_system())::pg_catalog.text,"
			+ " pg_catalog.pg_backend_pid()";

	private static final int KEEPALIVE_INTERVAL_SECONDS = 2;

	private static final int KEEPALIVE_COUNT = 3;

	private final Driver driver = new Driver();

	/**
	 * Opens a session on a node and records on the node which server answered.
	 * @param node the node
	 * @return the open session
	 * @throws SQLException when the node cannot be reached or refuses the session
	 */
	public NodeSession open(Node node) throws SQLException {
		return open(node, null);
	}

	/**
	 * Opens a session that the server ends by itself once its client falls silent: {@code idle_session_timeout}
	 * (PostgreSQL 14+) and server-side TCP keepalives, so that what the session holds (an owner lock) is freed when
	 * the client freezes or loses its network, not hours later.
	 * @param node the node
	 * @param idleSessionTimeout how long the session may stay idle, {@code null} for an ordinary session
	 * @return the open session
	 * @throws SQLException when the node cannot be reached or refuses the session
	 */
	public NodeSession open(Node node, Duration idleSessionTimeout) throws SQLException {
		ConnectionProperties timeouts = node.connectionProperties();
		Properties properties = login(node);
		// Until the session is set up only the handshake runs, so the connect timeout bounds every read.
		PGProperty.SOCKET_TIMEOUT.set(properties, wholeSeconds(timeouts.connectTimeout()));
		PGProperty.TCP_KEEP_ALIVE.set(properties, true);
		Connection connection = connect(this.driver, node, properties);
		try {
			Setup setup = setUpSession(connection, node, timeouts.statementTimeout());
			ServerVersion version = setup.version();
			refuseStandbyAsPrimary(node);
			if (idleSessionTimeout != null) {
				endWhenSilent(connection, node, setup, idleSessionTimeout);
			}
			connection.setNetworkTimeout(Runnable::run,
					Math.toIntExact(timeouts.statementTimeout().plus(SOCKET_MARGIN).toMillis()));
			return new NodeSession(connection, version);
		}
		catch (SQLException | RuntimeException ex) {
			new NodeSession(connection, null).close();
			throw ex;
		}
	}

	private static Setup setUpSession(Connection connection, Node node, Duration statementTimeout)
			throws SQLException {
		String statementMillis = Long.toString(statementTimeout.toMillis());
		String idleMillis = Long.toString(statementTimeout.multipliedBy(2).toMillis());
		try (PreparedStatement statement = connection.prepareStatement(SESSION_SETUP)) {
			statement.setString(1, statementMillis);
			statement.setString(2, statementMillis);
			statement.setString(3, idleMillis);
			try (ResultSet result = statement.executeQuery()) {
				result.next();
				ServerVersion version = new ServerVersion(result.getInt(5), result.getString(6));
				Timestamp started = result.getTimestamp(9);
				String[] control = result.getBoolean(11) ? controlFile(connection) : new String[3];
				node.answered(version, new ServerIdentity(result.getString(7), result.getObject(8, Integer.class),
						(started != null) ? started.toInstant() : null,
						(control[0] != null) ? Long.valueOf(control[0]) : null, control[1], result.getBoolean(10)));
				// The server session of the last statement, for the check that the next one runs in the same.
				return new Setup(version, (control[2] != null) ? Integer.parseInt(control[2]) : result.getInt(12));
			}
		}
	}

	/**
	 * Why a session that answers from more than one server session is refused, with {@code %s} for the node and
	 * {@code %d} for the two server processes.
	 */
	public static final String POOLED = "%s answered from two server sessions (pid %d, then %d): a connection pooler in"
			+ " transaction or statement mode (PgBouncer pool_mode=transaction) sits in front of it; slot-keeper's owner"
			+ " lock and idle_session_timeout need one server session: connect directly or through a session-mode pool";

	private record Setup(ServerVersion version, int pid) {
	}

	// A multi-host URL without targetServerType=primary, or a Service that still points at a demoted primary, can land
	// a primary's session on a standby: polls would find slots "missing" there and healing would recreate them on it.
	private static void refuseStandbyAsPrimary(Node node) throws SQLException {
		ServerIdentity server = node.identity();
		if (node.primary() && server != null && server.inRecovery()) {
			throw new SQLException("the server answering for target '" + node.target() + "' (" + server.address() + ":"
					+ server.port() + ") is in recovery, a standby: heartbeats, ownership, polls, healing and changes go"
					+ " to the primary only", "25006");
		}
	}

	// PUBLIC may run pg_control_*() by default, but an administrator can revoke it: the identity then has no timeline.
	private static String[] controlFile(Connection connection) throws SQLException {
		try (PreparedStatement statement = connection.prepareStatement(CONTROL_FILE);
				ResultSet result = statement.executeQuery()) {
			result.next();
			return new String[] { result.getString(1), result.getString(2), result.getString(3) };
		}
	}

	// Keepalives notice a peer whose network is gone; idle_session_timeout one whose process is frozen, which the
	// kernel keeps answering keepalives for. The owner's lock and these settings live in one server session: behind a
	// pooler in transaction or statement mode (PgBouncer's pool_mode=transaction) this second statement may run in
	// another one, and two instances would both believe they own the target. Seen once, it is certain; a pooler that
	// hands the same server session back by chance is caught where the owner lock is taken.
	private static void endWhenSilent(Connection connection, Node node, Setup setup, Duration idle)
			throws SQLException {
		int pid = silence(connection, setup.version(), idle);
		if (pid != setup.pid()) {
			throw new SQLNonTransientConnectionException(POOLED.formatted(node.describe(), setup.pid(), pid), "08004");
		}
	}

	/**
	 * Lets a session opened with {@link #open(Node, Duration)} stay silent for longer before the server ends it.
	 * @param session the session
	 * @param idle how long it may stay idle from now on
	 * @throws SQLException when the server refuses or does not answer in time
	 */
	public static void allowSilence(NodeSession session, Duration idle) throws SQLException {
		silence(session.connection(), session.version(), idle);
	}

	// The settings that end a silent session, in one round trip that also tells which server session ran it.
	private static int silence(Connection connection, ServerVersion version, Duration idle) throws SQLException {
		boolean idleTimeout = version.major() >= 14;
		try (PreparedStatement statement = connection.prepareStatement("SELECT pg_catalog.pg_backend_pid(),"
				+ " pg_catalog.set_config('tcp_keepalives_idle', ?, false),"
				+ " pg_catalog.set_config('tcp_keepalives_interval', ?, false),"
				+ " pg_catalog.set_config('tcp_keepalives_count', ?, false)"
				+ (idleTimeout ? ", pg_catalog.set_config('idle_session_timeout', ?, false)" : ""))) {
			statement.setString(1, Integer.toString(wholeSeconds(idle)));
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

	// What every session to a node logs in with: its role and password, application_name and the connect timeout.
	static Properties login(Node node) {
		Properties properties = new Properties();
		if (node.username() != null) {
			PGProperty.USER.set(properties, node.username());
		}
		if (node.password() != null) {
			PGProperty.PASSWORD.set(properties, node.password().reveal());
		}
		PGProperty.APPLICATION_NAME.set(properties, APPLICATION_NAME);
		// Told that the server is 9.0 or later (any with logical slots is), PgJDBC sends application_name with the
		// start-up message instead of a SET round trip after it: one statement less for every session a fleet opens.
		PGProperty.ASSUME_MIN_SERVER_VERSION.set(properties, "9.4");
		PGProperty.CONNECT_TIMEOUT.set(properties, wholeSeconds(node.connectionProperties().connectTimeout()));
		// The whole attempt, not each socket operation: a server that accepts and never answers would otherwise hold
		// the connecting thread for the handshake's timeout twice (sslmode=prefer tries again without TLS), and a
		// hundred such targets hold the connect lane long enough to delay the first beats of all the others.
		PGProperty.LOGIN_TIMEOUT.set(properties, wholeSeconds(node.connectionProperties().connectTimeout()));
		return properties;
	}

	// DriverManager would put the URL, which may hold credentials, into its "no suitable driver" message.
	static Connection connect(Driver driver, Node node, Properties properties) throws SQLException {
		Connection connection = driver.connect(node.url(), properties);
		if (connection == null) {
			throw new SQLNonTransientConnectionException("the URL of " + node.describe() + " is not a PgJDBC URL",
					"08001");
		}
		return connection;
	}

	static int wholeSeconds(Duration duration) {
		long seconds = duration.toSeconds() + (duration.toNanosPart() > 0 ? 1 : 0);
		return Math.toIntExact(Math.max(1, seconds));
	}

}
