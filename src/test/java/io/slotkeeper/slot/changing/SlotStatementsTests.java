package io.slotkeeper.slot.changing;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;

import org.junit.jupiter.api.Test;

import io.slotkeeper.fleet.Fleet;
import io.slotkeeper.sessions.ReplicationConnections;
import io.slotkeeper.testbed.PostgresServer;
import io.slotkeeper.testbed.PostgresTestBed;

import static io.slotkeeper.testbed.TestTargets.fleet;
import static io.slotkeeper.testbed.TestTargets.target;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The statements around a change on a real server: ending a slot's holder ends only the
 * process that still holds that slot, and the replication session of
 * {@code ALTER_REPLICATION_SLOT} has the server-side statement timeout every other
 * session has.
 */
class SlotStatementsTests {

	private final PostgresServer server = PostgresTestBed.shared();

	@Test
	void endingASlotsHolderSparesAProcessThatDoesNotHoldIt() throws Exception {
		String database = this.server.createDatabase();
		this.server.execute(database, "SELECT pg_create_logical_replication_slot('held_" + database + "', 'pgoutput')");
		try (Connection bystander = this.server.connect(database); Connection keeper = this.server.connect(database)) {
			int pid = pid(bystander);
			SlotStatements.terminate(keeper, "held_" + database, pid);
			assertThat(query(bystander, "SELECT 1")).as("the pid does not hold the slot: still alive").isEqualTo("1");
		}
		finally {
			this.server.execute(database, "SELECT pg_drop_replication_slot('held_" + database + "')");
		}
	}

	@Test
	void theReplicationSessionHasTheStatementTimeout() throws Exception {
		String database = this.server.createDatabase();
		try (Fleet fleet = fleet(target("orders", this.server, database, "connection.statement-timeout", "3s"));
				Connection replication = ReplicationConnections.open(fleet.get("orders").primary())) {
			assertThat(query(replication, "SHOW statement_timeout")).isEqualTo("3s");
			assertThat(query(replication, "SHOW search_path")).isEqualTo("pg_catalog, pg_temp");
		}
	}

	private static int pid(Connection connection) throws Exception {
		return Integer.parseInt(query(connection, "SELECT pg_backend_pid()"));
	}

	private static String query(Connection connection, String sql) throws Exception {
		try (Statement statement = connection.createStatement(); ResultSet result = statement.executeQuery(sql)) {
			result.next();
			return result.getString(1);
		}
	}

}
