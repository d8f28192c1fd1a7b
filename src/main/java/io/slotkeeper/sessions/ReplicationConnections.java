package io.slotkeeper.sessions;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Properties;

import org.postgresql.Driver;
import org.postgresql.PGProperty;

/**
 * Opens replication-protocol sessions ({@code replication=database}) to a node, for the
 * commands that have no SQL function, such as {@code ALTER_REPLICATION_SLOT}: same role,
 * password and connect timeout as the node's ordinary sessions, a socket timeout that
 * outlasts its statement timeout, and {@code application_name=slot-keeper}.
 */
public final class ReplicationConnections {

	private static final Driver DRIVER = new Driver();

	private ReplicationConnections() {
	}

	/**
	 * Opens a replication session to the node's database.
	 * @param node the node
	 * @return the session, in the simple query protocol that replication commands need;
	 * the caller closes it
	 * @throws SQLException when the node cannot be reached or refuses (a role without
	 * REPLICATION is refused)
	 */
	public static Connection open(Node node) throws SQLException {
		Properties properties = NodeLogin.properties(node);
		PGProperty.REPLICATION.set(properties, "database");
		PGProperty.PREFER_QUERY_MODE.set(properties, "simple");
		PGProperty.ASSUME_MIN_SERVER_VERSION.set(properties, "10");
		PGProperty.SOCKET_TIMEOUT.set(properties, NodeLogin
			.wholeSeconds(node.connectionProperties().statementTimeout().plus(NodeConnector.SOCKET_MARGIN)));
		Connection connection = NodeLogin.connect(DRIVER, node, properties);
		// slot-keeper's search_path and the server's statement timeout, as every other
		// session has (its clear 57014
		// comes before the socket's), in one round trip of the simple protocol.
		try (Statement statement = connection.createStatement()) {
			statement.execute(NodeConnector.SET_SEARCH_PATH + "; SET statement_timeout = "
					+ node.connectionProperties().statementTimeout().toMillis());
		}
		catch (SQLException | RuntimeException ex) {
			connection.close();
			throw ex;
		}
		return connection;
	}

}
