package io.slotkeeper;

import java.io.IOException;
import java.util.Map;

import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import org.springframework.test.web.servlet.client.RestTestClient;

import io.slotkeeper.testbed.PostgresServer;
import io.slotkeeper.testbed.PostgresTestBed;
import io.slotkeeper.testbed.RefusedPort;
import io.slotkeeper.testbed.TestTokens;

/**
 * The whole application on a random port against real servers, shared by the tests that
 * extend it (one context):
 * <ul>
 * <li>{@code up}: a healthy database, heartbeat every 200 ms;</li>
 * <li>{@code down}: nothing listens on its port;</li>
 * <li>{@code flappy}: a server of its own that tests stop and start again;</li>
 * <li>{@code idle}: heartbeats disabled.</li>
 * </ul>
 * Tokens {@value #VIEWER} (viewer) and {@value #OPERATOR} (operator) are configured as
 * their SHA-256.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
public abstract class ApplicationTestSupport {

	protected static final String VIEWER = "viewer-token-1234";

	protected static final String OPERATOR = "operator-token-5678";

	protected static final String DB_PASSWORD = "s3cret-db-password";

	private static PostgresServer flappyServer;

	@LocalServerPort
	protected int port;

	protected RestTestClient client() {
		return RestTestClient.bindToServer().baseUrl("http://localhost:" + this.port).build();
	}

	protected static synchronized PostgresServer flappyServer() {
		if (flappyServer == null) {
			PostgresServer server = PostgresTestBed.dedicated(Map.of());
			Runtime.getRuntime().addShutdownHook(new Thread(server::close));
			flappyServer = server;
		}
		return flappyServer;
	}

	@DynamicPropertySource
	static void targets(DynamicPropertyRegistry registry) throws IOException {
		PostgresServer shared = PostgresTestBed.shared();
		String database = shared.createDatabase();
		registry.add("slotkeeper.targets[0].name", () -> "up");
		registry.add("slotkeeper.targets[0].url", () -> shared.jdbcUrl(database));
		registry.add("slotkeeper.targets[0].username", shared::user);
		registry.add("slotkeeper.targets[0].password", () -> DB_PASSWORD + "-up");
		registry.add("slotkeeper.targets[0].heartbeat.interval", () -> "200ms");
		int closed = RefusedPort.PORT;
		registry.add("slotkeeper.targets[1].name", () -> "down");
		registry.add("slotkeeper.targets[1].url", () -> "jdbc:postgresql://127.0.0.1:" + closed + "/orders");
		registry.add("slotkeeper.targets[1].username", () -> "keeper");
		registry.add("slotkeeper.targets[1].password", () -> DB_PASSWORD + "-down");
		registry.add("slotkeeper.targets[1].heartbeat.backoff.min", () -> "100ms");
		registry.add("slotkeeper.targets[1].heartbeat.backoff.max", () -> "200ms");
		registry.add("slotkeeper.targets[1].heartbeat.unhealthy-after", () -> "2");
		PostgresServer flappy = flappyServer();
		registry.add("slotkeeper.targets[2].name", () -> "flappy");
		registry.add("slotkeeper.targets[2].url", () -> flappy.jdbcUrl("postgres"));
		registry.add("slotkeeper.targets[2].username", flappy::user);
		registry.add("slotkeeper.targets[2].heartbeat.interval", () -> "100ms");
		registry.add("slotkeeper.targets[2].heartbeat.backoff.min", () -> "100ms");
		registry.add("slotkeeper.targets[2].heartbeat.backoff.max", () -> "300ms");
		registry.add("slotkeeper.targets[2].heartbeat.unhealthy-after", () -> "2");
		registry.add("slotkeeper.targets[3].name", () -> "idle");
		registry.add("slotkeeper.targets[3].url", () -> shared.jdbcUrl(database));
		registry.add("slotkeeper.targets[3].username", shared::user);
		registry.add("slotkeeper.targets[3].heartbeat.enabled", () -> "false");
		TestTokens.register(registry, VIEWER, OPERATOR);
	}

}
