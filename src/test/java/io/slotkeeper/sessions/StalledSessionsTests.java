package io.slotkeeper.sessions;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;

import org.junit.jupiter.api.Test;

import io.slotkeeper.testbed.PostgresServer;
import io.slotkeeper.testbed.PostgresTestBed;
import io.slotkeeper.testbed.TcpProxy;

import static io.slotkeeper.testbed.TestTargets.fleet;
import static io.slotkeeper.testbed.TestTargets.targetVia;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import io.slotkeeper.fleet.Fleet;

/**
 * Every kind of session slot-keeper opens gives up on a statement sent into a stalled
 * network within its statement timeout and the socket margin, and says so: the pooled
 * sessions of polls, heals, handovers, discovery and the WAL-limit guard; the owner's
 * session of the heartbeat; the replication session that creates slots. No lane that
 * talks to a server can wait on one for good.
 */
class StalledSessionsTests {

	private static final Duration STATEMENT = Duration.ofSeconds(1);

	// The statement timeout, the socket margin, and a second for the machine.
	private static final Duration BOUND = STATEMENT.plus(NodeConnector.SOCKET_MARGIN).plusSeconds(1);

	private final PostgresServer server = PostgresTestBed.shared();

	@Test
	void aPooledStatementIntoAStalledNetworkEndsWithinItsTimeout() throws Exception {
		try (TcpProxy network = new TcpProxy(this.server.host(), this.server.port());
				Fleet fleet = fleet(targetVia("stalled", this.server, network.port(), "postgres",
						"connection.statement-timeout", "1s", "connection.connect-timeout", "1s"));
				Connection pooled = fleet.get("stalled").primary().connection()) {
			assertEndsWithinItsBound(network, pooled);
		}
	}

	@Test
	void theOwnersSessionIntoAStalledNetworkEndsWithinItsTimeout() throws Exception {
		try (TcpProxy network = new TcpProxy(this.server.host(), this.server.port());
				Fleet fleet = fleet(targetVia("stalled", this.server, network.port(), "postgres",
						"connection.statement-timeout", "1s", "connection.connect-timeout", "1s"));
				NodeSession owner = new NodeConnector(java.time.Clock.systemUTC()).open(fleet.get("stalled").primary(),
						Duration.ofSeconds(30))) {
			assertEndsWithinItsBound(network, owner.connection());
		}
	}

	@Test
	void theReplicationSessionIntoAStalledNetworkEndsWithinItsTimeout() throws Exception {
		try (TcpProxy network = new TcpProxy(this.server.host(), this.server.port());
				Fleet fleet = fleet(targetVia("stalled", this.server, network.port(), "postgres",
						"connection.statement-timeout", "1s", "connection.connect-timeout", "1s"));
				Connection replication = ReplicationConnections.open(fleet.get("stalled").primary())) {
			assertEndsWithinItsBound(network, replication);
		}
	}

	private static void assertEndsWithinItsBound(TcpProxy network, Connection connection) {
		network.stall();
		try {
			long sent = System.nanoTime();
			assertThatExceptionOfType(SQLException.class).isThrownBy(() -> {
				try (Statement statement = connection.createStatement()) {
					statement.execute("SELECT 1");
				}
			}).satisfies((ex) -> assertThat(ex.getMessage()).as("said").isNotBlank());
			Duration waited = Duration.ofNanos(System.nanoTime() - sent);
			System.out.printf("stalled session: gave up after %d ms%n", waited.toMillis());
			assertThat(waited).isBetween(STATEMENT, BOUND);
		}
		finally {
			network.resume();
		}
	}

}
