package io.slotkeeper.sessions;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.SQLNonTransientConnectionException;
import java.time.Duration;
import java.util.Properties;

import org.postgresql.Driver;
import org.postgresql.PGProperty;

/**
 * How every session to a node logs in, the ordinary ones and the replication ones alike:
 * its role and password, {@code application_name}, the connect timeout over the whole
 * attempt, and the driver called directly.
 */
final class NodeLogin {

	private NodeLogin() {
	}

	// What every session to a node logs in with: its role and password, application_name
	// and the connect timeout.
	static Properties properties(Node node) {
		Properties properties = new Properties();
		if (node.username() != null) {
			PGProperty.USER.set(properties, node.username());
		}
		if (node.password() != null) {
			PGProperty.PASSWORD.set(properties, node.password().reveal());
		}
		PGProperty.APPLICATION_NAME.set(properties, NodeConnector.APPLICATION_NAME);
		// Told that the server is 9.0 or later (any with logical slots is), PgJDBC sends
		// application_name with the
		// start-up message instead of a SET round trip after it: one statement less for
		// every session a fleet opens.
		PGProperty.ASSUME_MIN_SERVER_VERSION.set(properties, "9.4");
		PGProperty.CONNECT_TIMEOUT.set(properties, wholeSeconds(node.connectionProperties().connectTimeout()));
		// The whole attempt, not each socket operation: a server that accepts and never
		// answers would otherwise hold
		// the connecting thread for the handshake's timeout twice (sslmode=prefer tries
		// again without TLS), and a
		// hundred such targets hold the connect lane long enough to delay the first beats
		// of all the others.
		PGProperty.LOGIN_TIMEOUT.set(properties, wholeSeconds(node.connectionProperties().connectTimeout()));
		return properties;
	}

	// DriverManager would put the URL, which may hold credentials, into its "no suitable
	// driver" message.
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
