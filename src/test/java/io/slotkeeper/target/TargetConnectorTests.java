package io.slotkeeper.target;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;

import org.junit.jupiter.api.Test;

import io.slotkeeper.testbed.PostgresServer;
import io.slotkeeper.testbed.PostgresTestBed;

import static io.slotkeeper.testbed.TestTargets.target;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

class TargetConnectorTests {

	private final PostgresServer server = PostgresTestBed.shared();

	private final TargetConnector connector = new TargetConnector();

	@Test
	void sessionCarriesApplicationNameServerTimeoutsAndClientTimeout() throws SQLException {
		String database = this.server.createDatabase();
		try (TargetSession session = this.connector.open(target("orders", this.server, database,
				"heartbeat.statement-timeout", "1500ms"));
				Statement statement = session.connection().createStatement();
				ResultSet result = statement.executeQuery("SELECT current_setting('application_name'),"
						+ " current_setting('statement_timeout'), current_setting('lock_timeout'),"
						+ " current_setting('idle_in_transaction_session_timeout')")) {
			result.next();
			assertThat(result.getString(1)).isEqualTo("slot-keeper");
			assertThat(result.getString(2)).isEqualTo("1500ms");
			assertThat(result.getString(3)).isEqualTo("1500ms");
			assertThat(result.getString(4)).isEqualTo("3s");
			assertThat(session.connection().getNetworkTimeout()).isEqualTo(3500);
			assertThat(session.connection().getAutoCommit()).isTrue();
			assertThat(session.version().major()).isEqualTo(this.server.majorVersion());
		}
	}

	@Test
	void statementTimeoutEndsAStatementThatRunsTooLong() throws SQLException {
		String database = this.server.createDatabase();
		try (TargetSession session = this.connector.open(target("orders", this.server, database,
				"heartbeat.statement-timeout", "200ms"));
				Statement statement = session.connection().createStatement()) {
			assertThatExceptionOfType(SQLException.class).isThrownBy(() -> statement.execute("SELECT pg_sleep(5)"))
				.satisfies((ex) -> assertThat(ex.getSQLState()).isEqualTo("57014"));
		}
	}

	@Test
	void aUrlThatIsNotPgJdbcFailsWithoutQuotingTheUrl() {
		assertThatExceptionOfType(SQLException.class)
			.isThrownBy(() -> this.connector.open(target("orders", "jdbc:postgresqlx://db/x?password=leaked-secret")))
			.satisfies((ex) -> {
				assertThat(ex.getMessage()).contains("orders").doesNotContain("leaked-secret");
				assertThat(ex.getSQLState()).isEqualTo("08001");
			});
	}

	@Test
	void refusedConnectionNamesNoPassword() {
		assertThatExceptionOfType(SQLException.class)
			.isThrownBy(() -> this.connector.open(target("orders", "jdbc:postgresql://127.0.0.1:1/x", "password",
					"do-not-print-me", "heartbeat.connect-timeout", "1s")))
			.satisfies((ex) -> {
				assertThat(ex.getSQLState()).startsWith("08");
				assertThat(FailureDescription.of(ex, java.time.Instant.now()).message())
					.doesNotContain("do-not-print-me");
			});
	}

}
