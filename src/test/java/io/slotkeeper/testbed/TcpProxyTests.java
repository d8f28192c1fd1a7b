package io.slotkeeper.testbed;

import java.sql.Connection;
import java.sql.DriverManager;
import java.time.Duration;
import java.util.Properties;
import java.util.concurrent.Executors;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

class TcpProxyTests {

	// A killed process's kernel closes its sockets; through a Service the server sees that close and ends the session.
	// A forwarder that kept the server's side open left the session behind: the soak counted 161 of slot-keeper's.
	@Test
	void aClientGoneWithoutGoodbyeEndsItsSessionBehindTheForwarder() throws Exception {
		PostgresServer server = PostgresTestBed.shared();
		try (TcpProxy proxy = new TcpProxy(server.host(), server.port())) {
			Properties properties = new Properties();
			properties.setProperty("user", server.user());
			if (server.password() != null) {
				properties.setProperty("password", server.password());
			}
			properties.setProperty("ApplicationName", "gone-without-goodbye");
			Connection connection = DriverManager.getConnection(
					"jdbc:postgresql://127.0.0.1:" + proxy.port() + "/postgres", properties);
			assertThat(sessions(server)).isEqualTo("1");
			// abort closes the socket without the protocol's Terminate, as a killed process does.
			connection.abort(Executors.newSingleThreadExecutor());
			await().atMost(Duration.ofSeconds(10)).until(() -> "0".equals(sessions(server)));
		}
	}

	private static String sessions(PostgresServer server) {
		return server.queryForString("postgres",
				"SELECT count(*) FROM pg_stat_activity WHERE application_name = 'gone-without-goodbye'");
	}

}
