package io.slotkeeper.sessions;

import java.sql.Connection;
import java.sql.SQLException;

/**
 * Work on a connection.
 *
 * @param <T> what it returns
 */
@FunctionalInterface
public interface SqlWork<T> {

	/**
	 * Does the work.
	 * @param connection the connection, auto-commit
	 * @return the result
	 * @throws SQLException when the server refuses
	 */
	T apply(Connection connection) throws SQLException;

}
