package io.slotkeeper.sessions;

import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;

import org.junit.jupiter.api.Test;

import io.slotkeeper.testbed.PgBouncer;
import io.slotkeeper.testbed.PostgresServer;
import io.slotkeeper.testbed.PostgresTestBed;

import static io.slotkeeper.testbed.TestTargets.fleet;
import static io.slotkeeper.testbed.TestTargets.target;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.junit.jupiter.api.Assumptions.assumeTrue;
import io.slotkeeper.fleet.Fleet;

/**
 * Behind PgBouncer in transaction mode a session's statements run in different server
 * sessions, so a session advisory lock and {@code idle_session_timeout} mean nothing and
 * two instances would both own a target: the owner's session is refused with the reason,
 * while ordinary sessions (polls, the API) still work through it.
 */
class PooledConnectionTests {

	@Test
	void theOwnersSessionIsRefusedBehindATransactionPooler() throws Exception {
		assumeTrue(PgBouncer.installed() || System.getenv("CI") != null,
				"PgBouncer is not installed: apt-get install -y pgbouncer to run this test");
		PostgresServer server = PostgresTestBed.shared();
		String database = server.createDatabase();
		try (PgBouncer bouncer = new PgBouncer(server, database);
				Fleet fleet = fleet(target("pooled", bouncer.jdbcUrl(database), "username", server.user()))) {
			Node primary = fleet.get("pooled").primary();
			openServerSessions(primary, 2);
			assertThatExceptionOfType(SQLException.class)
				.isThrownBy(() -> new NodeConnector(java.time.Clock.systemUTC()).open(primary, Duration.ofSeconds(5)))
				.withMessageContaining("answered from two server sessions")
				.withMessageContaining("PgBouncer pool_mode=transaction")
				.satisfies((ex) -> assertThat(ex.getSQLState()).isEqualTo("08004"));
			try (NodeSession plain = new NodeConnector(java.time.Clock.systemUTC()).open(primary)) {
				assertThat(plain.version().major()).isPositive();
			}
		}
	}

	// PgBouncer opens a server session per client transaction running at once: two at
	// once leave two behind.
	private static void openServerSessions(Node node, int count) {
		CompletableFuture<?>[] running = new CompletableFuture<?>[count];
		for (int i = 0; i < count; i++) {
			running[i] = CompletableFuture.runAsync(() -> {
				try (NodeSession session = new NodeConnector(java.time.Clock.systemUTC()).open(node);
						Statement statement = session.connection().createStatement()) {
					statement.execute("SELECT pg_catalog.pg_sleep(0.5)");
				}
				catch (SQLException ex) {
					throw new IllegalStateException(ex);
				}
			});
		}
		CompletableFuture.allOf(running).join();
	}

}
