package io.slotkeeper.testbed;

import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketException;
import java.net.SocketTimeoutException;
import java.sql.Connection;
import java.sql.DriverManager;
import java.time.Duration;
import java.util.Properties;
import java.util.concurrent.Executors;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

class TcpProxyTests {

	// A killed process's kernel closes its sockets; through a Service the server sees
	// that close and ends the session.
	// A forwarder that kept the server's side open left the session behind: the soak
	// counted 161 of slot-keeper's.
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
			Connection connection = DriverManager
				.getConnection("jdbc:postgresql://127.0.0.1:" + proxy.port() + "/postgres", properties);
			assertThat(sessions(server)).isEqualTo("1");
			// abort closes the socket without the protocol's Terminate, as a killed
			// process does.
			connection.abort(Executors.newSingleThreadExecutor());
			await().atMost(Duration.ofSeconds(10)).until(() -> "0".equals(sessions(server)));
		}
	}

	// A server that goes with a reset (a backend ended with a request unread, the primary
	// restarting) tells its client
	// so through a Service too. A forwarder that swallowed the reset left the client
	// waiting for an answer for good:
	// the hour soak's writer of one database wrote nothing for 7 minutes, until a
	// switchover closed the connection.
	@Test
	void aServerResetReachesTheClientBehindTheForwarder() throws Exception {
		try (ServerSocket server = new ServerSocket(0, 1, InetAddress.getLoopbackAddress());
				TcpProxy proxy = new TcpProxy("127.0.0.1", server.getLocalPort());
				Socket client = new Socket("127.0.0.1", proxy.port())) {
			byte[] request = "a request the server reads and never answers".getBytes();
			client.getOutputStream().write(request);
			try (Socket accepted = server.accept()) {
				accepted.getInputStream().readNBytes(request.length);
				// Linger 0: the close is a reset, not a goodbye.
				accepted.setSoLinger(true, 0);
			}
			client.setSoTimeout(10_000);
			assertThat(endOf(client.getInputStream())).isNotEqualTo("no word within 10 s");
		}
	}

	private static String endOf(InputStream in) throws IOException {
		try {
			return (in.read() < 0) ? "closed" : "data";
		}
		catch (SocketTimeoutException ex) {
			return "no word within 10 s";
		}
		catch (SocketException ex) {
			return "reset";
		}
	}

	private static String sessions(PostgresServer server) {
		return server.queryForString("postgres",
				"SELECT count(*) FROM pg_stat_activity WHERE application_name = 'gone-without-goodbye'");
	}

}
