package io.slotkeeper.sessions;

import java.time.Clock;
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
 * Opens connections to a node so that a server that stops answering cannot hold the
 * caller for ever: PgJDBC connect and socket timeouts on the client,
 * {@code statement_timeout}, {@code lock_timeout} and
 * {@code idle_in_transaction_session_timeout} on the server, and
 * {@code application_name=slot-keeper} so that operators see who is connected. Every
 * session tells the node which server answered.
 */
public class NodeConnector {

	/**
	 * The {@code application_name} of every slot-keeper session.
	 */
	public static final String APPLICATION_NAME = "slot-keeper";

	// The socket timeout must outlast the server's statement timeout, so that the
	// server's clear 57014 wins
	// whenever the server still answers.
	static final Duration SOCKET_MARGIN = Duration.ofSeconds(2);

	/**
	 * The {@code search_path} of every slot-keeper session: only the system catalog and
	 * the session's own temporary schema, so that no function, operator or table a
	 * database's owner creates elsewhere is ever resolved in place of PostgreSQL's own
	 * (CVE-2018-1058).
	 */
	public static final String SEARCH_PATH = "pg_catalog, pg_temp";

	/**
	 * A utility statement with no function or operator to resolve: it cannot be hijacked
	 * by whatever search_path the URL, the database or the role set.
	 */
	public static final String SET_SEARCH_PATH = "SET search_path = " + SEARCH_PATH;

	// Every name in it is qualified, so it resolves the same whatever search_path the
	// URL, the database or the role set;
	// its first column sets slot-keeper's own for everything after it, in the round trip
	// the session set-up takes anyway.
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

	// A separate statement: the server checks a function's privilege when it plans the
	// call, even one a CASE skips.
	// A promoted standby writes on its new timeline before its first checkpoint names it:
	// a primary's timeline is
	// read from the name of its current WAL file, a standby's from its last restartpoint.
	private static final String CONTROL_FILE = "SELECT CASE WHEN pg_catalog.pg_is_in_recovery()"
			+ " THEN (SELECT timeline_id FROM pg_catalog.pg_control_checkpoint())::bigint"
			+ " ELSE ('x' || pg_catalog.substr(pg_catalog.pg_walfile_name(pg_catalog.pg_current_wal_lsn()), 1, 8))"
			+ "::bit(32)::bigint END, (SELECT system_identifier FROM pg_catalog.pg_control_system())::pg_catalog.text,"
			+ " pg_catalog.pg_backend_pid()";

	private final Driver driver = new Driver();

	private final Clock clock;

	/**
	 * @param clock when a node was seen answered by another server
	 */
	public NodeConnector(Clock clock) {
		this.clock = clock;
	}

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
	 * Opens a session that the server ends by itself once its client falls silent:
	 * {@code idle_session_timeout} (PostgreSQL 14+) and server-side TCP keepalives, so
	 * that what the session holds (an owner lock) is freed when the client freezes or
	 * loses its network, not hours later.
	 * @param node the node
	 * @param idleSessionTimeout how long the session may stay idle, {@code null} for an
	 * ordinary session
	 * @return the open session
	 * @throws SQLException when the node cannot be reached or refuses the session
	 */
	public NodeSession open(Node node, Duration idleSessionTimeout) throws SQLException {
		ConnectionProperties timeouts = node.connectionProperties();
		Properties properties = NodeLogin.properties(node);
		// Until the session is set up only the handshake runs, so the connect timeout
		// bounds every read.
		PGProperty.SOCKET_TIMEOUT.set(properties, NodeLogin.wholeSeconds(timeouts.connectTimeout()));
		PGProperty.TCP_KEEP_ALIVE.set(properties, true);
		Connection connection = NodeLogin.connect(this.driver, node, properties);
		try {
			Setup setup = setUpSession(connection, node, timeouts.statementTimeout(), this.clock);
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

	private static Setup setUpSession(Connection connection, Node node, Duration statementTimeout, Clock clock)
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
						(control[0] != null) ? Long.valueOf(control[0]) : null, control[1], result.getBoolean(10)),
						clock.instant());
				// The server session of the last statement, for the check that the next
				// one runs in the same.
				return new Setup(version, (control[2] != null) ? Integer.parseInt(control[2]) : result.getInt(12));
			}
		}
	}

	/**
	 * Why a session that answers from more than one server session is refused, with
	 * {@code %s} for the node and {@code %d} for the two server processes.
	 */
	public static final String POOLED = "%s answered from two server sessions (pid %d, then %d): a connection pooler in"
			+ " transaction or statement mode (PgBouncer pool_mode=transaction) sits in front of it; slot-keeper's owner"
			+ " lock and idle_session_timeout need one server session: connect directly or through a session-mode pool";

	private record Setup(ServerVersion version, int pid) {
	}

	// A multi-host URL without targetServerType=primary, or a Service that still points
	// at a demoted primary, can land
	// a primary's session on a standby: polls would find slots "missing" there and
	// healing would recreate them on it.
	private static void refuseStandbyAsPrimary(Node node) throws SQLException {
		ServerIdentity server = node.identity();
		if (node.primary() && server != null && server.inRecovery()) {
			throw new SQLException(
					"the server answering for target '" + node.target() + "' (" + server.address() + ":" + server.port()
							+ ") is in recovery, a standby: heartbeats, ownership, polls, healing and changes go"
							+ " to the primary only",
					"25006");
		}
	}

	// PUBLIC may run pg_control_*() by default, but an administrator can revoke it: the
	// identity then has no timeline.
	private static String[] controlFile(Connection connection) throws SQLException {
		try (PreparedStatement statement = connection.prepareStatement(CONTROL_FILE);
				ResultSet result = statement.executeQuery()) {
			result.next();
			return new String[] { result.getString(1), result.getString(2), result.getString(3) };
		}
	}

	// Keepalives notice a peer whose network is gone; idle_session_timeout one whose
	// process is frozen, which the
	// kernel keeps answering keepalives for. The owner's lock and these settings live in
	// one server session: behind a
	// pooler in transaction or statement mode (PgBouncer's pool_mode=transaction) this
	// second statement may run in
	// another one, and two instances would both believe they own the target. Seen once,
	// it is certain; a pooler that
	// hands the same server session back by chance is caught where the owner lock is
	// taken.
	private static void endWhenSilent(Connection connection, Node node, Setup setup, Duration idle)
			throws SQLException {
		int pid = SessionSilence.set(connection, setup.version(), idle);
		if (pid != setup.pid()) {
			throw new SQLNonTransientConnectionException(POOLED.formatted(node.describe(), setup.pid(), pid), "08004");
		}
	}

}
