package io.slotkeeper.sessions;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;

import org.junit.jupiter.api.Test;

import io.slotkeeper.testbed.PostgresServer;
import io.slotkeeper.testbed.PostgresTestBed;

import static io.slotkeeper.testbed.TestTargets.primary;
import static io.slotkeeper.testbed.TestTargets.target;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

class NodeConnectorTests {

	private final PostgresServer server = PostgresTestBed.shared();

	private final NodeConnector connector = new NodeConnector(java.time.Clock.systemUTC());

	@Test
	void sessionCarriesApplicationNameServerTimeoutsAndClientTimeout() throws SQLException {
		String database = this.server.createDatabase();
		try (NodeSession session = this.connector
			.open(primary(target("orders", this.server, database, "connection.statement-timeout", "1500ms")));
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
	void everySessionRecordsOnTheNodeWhichServerAnswered() throws SQLException {
		Node node = primary(target("orders", this.server, this.server.createDatabase()));
		assertThat(node.identity()).as("before any session").isNull();
		try (NodeSession session = this.connector.open(node)) {
			ServerIdentity identity = node.identity();
			assertThat(identity.address())
				.isEqualTo(this.server.queryForString("postgres", "SELECT inet_server_addr()::text"));
			assertThat(identity.port()).isEqualTo(this.server.port());
			assertThat(identity.startedAt()).isBefore(Instant.now()).isAfter(Instant.now().minus(Duration.ofHours(1)));
			assertThat(identity.timeline()).as("a superuser reads pg_control_checkpoint()").isEqualTo(1L);
			assertThat(identity.systemIdentifier()).isEqualTo(
					this.server.queryForString("postgres", "SELECT system_identifier::text FROM pg_control_system()"));
			assertThat(identity.inRecovery()).isFalse();
			assertThat(node.version()).isEqualTo(session.version());
		}
	}

	@Test
	void aRoleThatMayNotReadTheControlFileStillGetsAnIdentity() throws SQLException {
		String database = this.server.createDatabase();
		String role = "plain_" + database;
		// Function privileges are per database: this changes only the test's own
		// database.
		this.server.execute(database, "CREATE ROLE " + role + " LOGIN PASSWORD 'plain-pw'",
				"REVOKE EXECUTE ON FUNCTION pg_control_checkpoint() FROM PUBLIC",
				"REVOKE EXECUTE ON FUNCTION pg_control_system() FROM PUBLIC");
		Node node = primary(target("orders", this.server.jdbcUrl(database), "username", role, "password", "plain-pw"));
		try (NodeSession session = this.connector.open(node)) {
			assertThat(node.identity().port()).isEqualTo(this.server.port());
			assertThat(node.identity().startedAt()).isNotNull();
			assertThat(node.identity().timeline()).isNull();
			assertThat(node.identity().systemIdentifier()).isNull();
		}
	}

	@Test
	void anOwnerSessionIsEndedByTheServerOnceItsClientFallsSilent() throws SQLException {
		String database = this.server.createDatabase();
		Node node = primary(target("orders", this.server, database));
		try (NodeSession session = this.connector.open(node, Duration.ofMillis(1500));
				Statement statement = session.connection().createStatement();
				ResultSet result = statement.executeQuery("SELECT current_setting('idle_session_timeout'),"
						+ " current_setting('tcp_keepalives_idle'), current_setting('tcp_keepalives_count'),"
						+ " pg_backend_pid()")) {
			result.next();
			assertThat(result.getString(1)).isEqualTo("1500ms");
			assertThat(result.getString(2)).isEqualTo("2");
			assertThat(result.getString(3)).isEqualTo("3");
			String pid = result.getString(4);
			org.awaitility.Awaitility.await()
				.atMost(Duration.ofSeconds(10))
				.until(() -> "0".equals(this.server.queryForString(database,
						"SELECT count(*) FROM pg_stat_activity WHERE pid = " + pid)));
		}
	}

	@Test
	void anOrdinarySessionHasNoIdleSessionTimeout() throws SQLException {
		try (NodeSession session = this.connector
			.open(primary(target("orders", this.server, this.server.createDatabase())));
				Statement statement = session.connection().createStatement();
				ResultSet result = statement.executeQuery("SELECT current_setting('idle_session_timeout')")) {
			result.next();
			assertThat(result.getString(1)).isEqualTo("0");
		}
	}

	@Test
	void statementTimeoutEndsAStatementThatRunsTooLong() throws SQLException {
		String database = this.server.createDatabase();
		try (NodeSession session = this.connector
			.open(primary(target("orders", this.server, database, "connection.statement-timeout", "200ms")));
				Statement statement = session.connection().createStatement()) {
			assertThatExceptionOfType(SQLException.class).isThrownBy(() -> statement.execute("SELECT pg_sleep(5)"))
				.satisfies((ex) -> assertThat(ex.getSQLState()).isEqualTo("57014"));
		}
	}

	@Test
	void aUrlThatIsNotPgJdbcFailsWithoutQuotingTheUrl() {
		assertThatExceptionOfType(SQLException.class).isThrownBy(
				() -> this.connector.open(primary(target("orders", "jdbc:postgresqlx://db/x?password=leaked-secret"))))
			.satisfies((ex) -> {
				assertThat(ex.getMessage()).contains("orders").doesNotContain("leaked-secret");
				assertThat(ex.getSQLState()).isEqualTo("08001");
			});
	}

	@Test
	void refusedConnectionNamesNoPassword() {
		assertThatExceptionOfType(SQLException.class)
			.isThrownBy(() -> this.connector.open(primary(target("orders", "jdbc:postgresql://127.0.0.1:1/x",
					"password", "do-not-print-me", "connection.connect-timeout", "1s"))))
			.satisfies((ex) -> {
				assertThat(ex.getSQLState()).startsWith("08");
				assertThat(FailureDescription.of(ex, Instant.now()).message()).doesNotContain("do-not-print-me");
			});
	}

}
