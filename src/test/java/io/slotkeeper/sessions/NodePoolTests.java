package io.slotkeeper.sessions;

import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;

import org.junit.jupiter.api.Test;

import io.slotkeeper.testbed.PostgresServer;
import io.slotkeeper.testbed.PostgresTestBed;

import static io.slotkeeper.testbed.TestTargets.fleet;
import static io.slotkeeper.testbed.TestTargets.target;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assumptions.assumeTrue;
import io.slotkeeper.fleet.Fleet;

/**
 * A node's pool opens no session it does not use: a new session costs the server more
 * than anything slot-keeper asks of it, and a fleet of a thousand targets opens its pools
 * all at once.
 */
class NodePoolTests {

	private final PostgresServer shared = PostgresTestBed.shared();

	@Test
	void theSessionThatFoundTheNodeReachableServesThePoolsFirstConnection() {
		// Before 15 the statistics collector counts sessions late; from 15 a backend's
		// counts are in when it has exited.
		assumeTrue(this.shared.majorVersion() >= 15, "pg_stat_database counts sessions at exit from PostgreSQL 15");
		String database = this.shared.createDatabase();
		try (Fleet fleet = fleet(target("pooled-once", this.shared, database))) {
			Node primary = fleet.get("pooled-once").primary();
			int first = primary.withConnection(NodePoolTests::backendPid);
			int second = primary.withConnection(NodePoolTests::backendPid);
			assertThat(second).as("the pool's connection is reused").isEqualTo(first);
		}
		await().atMost(Duration.ofSeconds(10))
			.until(() -> "0".equals(this.shared.queryForString("postgres",
					"SELECT count(*) FROM pg_stat_activity WHERE datname = '" + database + "'")));
		assertThat(this.shared.queryForString("postgres",
				"SELECT sessions FROM pg_stat_database WHERE datname = '" + database + "'"))
			.as("sessions opened for two reads through a new pool")
			.isEqualTo("1");
	}

	private static int backendPid(java.sql.Connection connection) throws java.sql.SQLException {
		try (Statement statement = connection.createStatement();
				ResultSet result = statement.executeQuery("SELECT pg_catalog.pg_backend_pid()")) {
			result.next();
			return result.getInt(1);
		}
	}

}
