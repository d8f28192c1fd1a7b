package io.slotkeeper.slot.changing;

import java.sql.Connection;
import java.sql.SQLException;

/**
 * A step's statement on the target's connection.
 */
@FunctionalInterface
interface SqlAction {

	void run(Connection connection) throws SQLException;

}
