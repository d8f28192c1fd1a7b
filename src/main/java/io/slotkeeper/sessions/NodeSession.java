package io.slotkeeper.sessions;

import java.sql.Connection;
import java.sql.SQLException;

/**
 * An open connection to a node with its session options set.
 *
 * @param connection the JDBC connection, in auto-commit mode
 * @param version the server's version
 */
public record NodeSession(Connection connection, ServerVersion version) implements AutoCloseable {

	/**
	 * Closes the connection, ignoring failures: a connection being dropped after an error
	 * may already be broken.
	 */
	@Override
	public void close() {
		try {
			this.connection.close();
		}
		catch (SQLException ex) {
			// Nothing to do: the server side ends the session on its own when the socket
			// goes.
		}
	}

}
