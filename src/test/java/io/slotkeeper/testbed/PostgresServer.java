package io.slotkeeper.testbed;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Properties;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A real PostgreSQL server for tests, with logical decoding on, reached as its superuser.
 */
public interface PostgresServer extends AutoCloseable {

	/**
	 * Settings every test server gets.
	 */
	java.util.Map<String, String> LOGICAL_DECODING = java.util.Map.of("wal_level", "logical", "max_replication_slots",
			"128", "max_wal_senders", "32", "max_connections", "200");

	/**
	 * Host to connect to.
	 * @return the host
	 */
	String host();

	/**
	 * Port to connect to.
	 * @return the port
	 */
	int port();

	/**
	 * The superuser tests connect as.
	 * @return the user name
	 */
	String user();

	/**
	 * The superuser's password, or {@code null} where trust authentication is used.
	 * @return the password
	 */
	String password();

	/**
	 * Stops the server, keeping its data; {@link #start()} brings it back on the same
	 * port.
	 */
	void stop();

	/**
	 * Starts a stopped server again.
	 */
	void start();

	/**
	 * Freezes every process of the server (SIGSTOP): connections stay open and nothing
	 * answers.
	 */
	void freeze();

	/**
	 * Thaws a frozen server (SIGCONT).
	 */
	void thaw();

	/**
	 * Starts a streaming standby of this server; the caller closes it.
	 * @return the standby
	 */
	default PostgresServer standby() {
		throw new UnsupportedOperationException("this backend does not build standbys");
	}

	/**
	 * Starts a streaming standby that synchronizes failover slots (PostgreSQL 17+):
	 * {@code sync_replication_slots}, {@code hot_standby_feedback}, a physical slot and
	 * {@code dbname} in {@code primary_conninfo}.
	 * @return the standby; the caller closes it
	 */
	default PostgresServer slotSyncingStandby() {
		throw new UnsupportedOperationException("this backend does not build standbys");
	}

	/**
	 * Promotes this standby to a primary and waits until it is one.
	 */
	default void promote() {
		if (!"t".equals(queryForString("postgres", "SELECT pg_promote(true, 60)"))) {
			throw new IllegalStateException("the standby on port " + port() + " was not promoted within 60 s");
		}
	}

	/**
	 * Makes this stopped former primary a standby of the server that took over from it
	 * (after a clean switchover), synchronizing failover slots from PostgreSQL 17, and
	 * starts it; what it had stays, its slots included.
	 * @param primary the new primary
	 */
	default void rejoinAsStandbyOf(PostgresServer primary) {
		throw new UnsupportedOperationException("this backend does not build standbys");
	}

	/**
	 * Whether this backend can stop, start, freeze and thaw the server.
	 * @return whether fault tests can run on it
	 */
	boolean supportsFaults();

	/**
	 * Stops the server and removes everything it had.
	 */
	@Override
	void close();

	/**
	 * A PgJDBC URL of a database on this server.
	 * @param database the database
	 * @return the URL
	 */
	default String jdbcUrl(String database) {
		return "jdbc:postgresql://" + host() + ":" + port() + "/" + database;
	}

	/**
	 * Connects as the superuser.
	 * @param database the database
	 * @return the connection, auto-commit
	 * @throws SQLException when the server refuses
	 */
	default Connection connect(String database) throws SQLException {
		return connectThrough(port(), database);
	}

	/**
	 * Connects as the superuser through a port that leads to this server (a
	 * {@link TcpProxy}), with PgJDBC's defaults: no socket timeout, so that a statement
	 * sent into a stalled network waits for good, as slot-keeper's own sessions never do.
	 * @param port the port on this machine
	 * @param database the database
	 * @return the connection, auto-commit
	 * @throws SQLException when the server refuses
	 */
	default Connection connectThrough(int port, String database) throws SQLException {
		Properties properties = new Properties();
		properties.setProperty("user", user());
		if (password() != null) {
			properties.setProperty("password", password());
		}
		return DriverManager.getConnection("jdbc:postgresql://" + host() + ":" + port + "/" + database, properties);
	}

	/**
	 * Creates a fresh, empty database for one test.
	 * @return its name
	 */
	default String createDatabase() {
		String name = "db_" + ProcessHandle.current().pid() + "_" + Databases.NEXT.incrementAndGet();
		execute("postgres", "CREATE DATABASE " + name);
		return name;
	}

	/**
	 * Runs statements in a database.
	 * @param database the database
	 * @param sql the statements, each run on its own
	 */
	default void execute(String database, String... sql) {
		try (Connection connection = connect(database); Statement statement = connection.createStatement()) {
			for (String each : sql) {
				statement.execute(each);
			}
		}
		catch (SQLException ex) {
			throw new IllegalStateException(ex);
		}
	}

	/**
	 * Runs a query that returns one value.
	 * @param database the database
	 * @param sql the query
	 * @return the first column of the first row, as text
	 */
	default String queryForString(String database, String sql) {
		try (Connection connection = connect(database);
				Statement statement = connection.createStatement();
				ResultSet result = statement.executeQuery(sql)) {
			return result.next() ? result.getString(1) : null;
		}
		catch (SQLException ex) {
			throw new IllegalStateException(ex);
		}
	}

	/**
	 * The server's major version.
	 * @return for example 17
	 */
	default int majorVersion() {
		return Integer.parseInt(queryForString("postgres", "SHOW server_version_num")) / 10000;
	}

	/**
	 * Numbers for database names.
	 */
	final class Databases {

		static final AtomicInteger NEXT = new AtomicInteger();

		private Databases() {
		}

	}

}
