package io.slotkeeper.slot;

import java.io.IOException;
import java.util.Map;

import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import org.springframework.test.web.servlet.client.RestTestClient;

import io.slotkeeper.testbed.ConnectStub;
import io.slotkeeper.testbed.PostgresServer;
import io.slotkeeper.testbed.PostgresTestBed;
import io.slotkeeper.testbed.RefusedPort;
import io.slotkeeper.testbed.SlotRecipes;
import io.slotkeeper.testbed.TestTokens;

/**
 * The application against a server of its own with {@code max_slot_wal_keep_size=1MB} (so
 * that a slot can be lost in milliseconds) and a Kafka Connect stand-in:
 * <ul>
 * <li>target {@code main} logs in as the superuser into database {@code app}; slot
 * {@code debezium} has a connector on the stand-in (basic auth
 * {@code connect}/{@value #CONNECT_PASSWORD}), slot {@code orphan} one on a dead port,
 * slot {@code healing} is recreated when lost (twice an hour at most) and has a connector
 * on the stand-in, slot {@code snapshotted} has one and asks for a re-snapshot through
 * Debezium's signal table {@code debezium_signal};</li>
 * <li>target {@code norepl} logs in as a role without the REPLICATION attribute (nor
 * INSERT on the signal table).</li>
 * </ul>
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
abstract class SlotApiTestSupport {

	static final String VIEWER = "slot-viewer-token";

	static final String OPERATOR = "slot-operator-token";

	static final String CONNECT_PASSWORD = "connect-secret-pw";

	static final String DATABASE = "app";

	private static PostgresServer server;

	private static ConnectStub connect;

	@LocalServerPort
	int port;

	static synchronized PostgresServer server() {
		if (server == null) {
			PostgresServer started = PostgresTestBed.dedicated(Map.of("max_slot_wal_keep_size", "1MB"));
			started.execute("postgres", "CREATE DATABASE " + DATABASE, "CREATE ROLE norepl LOGIN");
			started.execute(DATABASE, "CREATE TABLE orders (id bigserial PRIMARY KEY, item text)",
					"CREATE PUBLICATION pub FOR TABLE orders",
					"CREATE TABLE debezium_signal (id varchar(42) PRIMARY KEY,"
							+ " type varchar(32) NOT NULL, data varchar(2048))");
			Runtime.getRuntime().addShutdownHook(new Thread(started::close));
			server = started;
		}
		return server;
	}

	static synchronized ConnectStub connect() {
		if (connect == null) {
			connect = new ConnectStub();
		}
		return connect;
	}

	RestTestClient client() {
		return RestTestClient.bindToServer().baseUrl("http://localhost:" + this.port).build();
	}

	RestTestClient operator() {
		return RestTestClient.bindToServer()
			.baseUrl("http://localhost:" + this.port)
			.defaultHeader("Authorization", "Bearer " + OPERATOR)
			.build();
	}

	RestTestClient viewer() {
		return RestTestClient.bindToServer()
			.baseUrl("http://localhost:" + this.port)
			.defaultHeader("Authorization", "Bearer " + VIEWER)
			.build();
	}

	/**
	 * Whether a slot exists, read on the server itself.
	 */
	static boolean exists(String slot) {
		return "1".equals(server().queryForString("postgres",
				"SELECT count(*) FROM pg_replication_slots WHERE slot_name = '" + slot + "'"));
	}

	static void createSlot(String slot) {
		server().execute(DATABASE, "SELECT pg_create_logical_replication_slot('" + slot + "', 'pgoutput')");
	}

	/**
	 * The recipe from the facts page: with max_slot_wal_keep_size=1MB, a switch and a
	 * checkpoint lose a slot.
	 */
	static void loseSlot(String slot) {
		SlotRecipes.lose(server(), DATABASE, slot);
	}

	@DynamicPropertySource
	static void targets(DynamicPropertyRegistry registry) throws IOException {
		PostgresServer postgres = server();
		int dead = RefusedPort.PORT;
		registry.add("slotkeeper.targets[0].name", () -> "main");
		registry.add("slotkeeper.targets[0].url", () -> postgres.jdbcUrl(DATABASE));
		registry.add("slotkeeper.targets[0].username", postgres::user);
		registry.add("slotkeeper.targets[0].heartbeat.interval", () -> "200ms");
		registry.add("slotkeeper.targets[0].slots-poll-interval", () -> "200ms");
		// Heartbeats alone shrink safe_wal_size by hours' worth; warn on any shrinking
		// slot so that tests see it.
		registry.add("slotkeeper.targets[0].loss-warning", () -> "365d");
		registry.add("slotkeeper.targets[0].slots[0].name", () -> "debezium");
		registry.add("slotkeeper.targets[0].slots[0].connector.url", () -> connect().url());
		registry.add("slotkeeper.targets[0].slots[0].connector.name", () -> "rbac-debezium");
		registry.add("slotkeeper.targets[0].slots[0].connector.username", () -> "connect");
		registry.add("slotkeeper.targets[0].slots[0].connector.password", () -> CONNECT_PASSWORD);
		registry.add("slotkeeper.targets[0].slots[1].name", () -> "orphan");
		registry.add("slotkeeper.targets[0].slots[1].connector.url", () -> "http://127.0.0.1:" + dead);
		registry.add("slotkeeper.targets[0].slots[1].connector.name", () -> "gone");
		registry.add("slotkeeper.targets[0].slots[1].connector.timeout", () -> "1s");
		registry.add("slotkeeper.targets[0].slots[2].name", () -> "healing");
		registry.add("slotkeeper.targets[0].slots[2].on-lost", () -> "recreate");
		registry.add("slotkeeper.targets[0].slots[2].max-recreations-per-hour", () -> "2");
		registry.add("slotkeeper.targets[0].slots[2].connector.url", () -> connect().url());
		registry.add("slotkeeper.targets[0].slots[2].connector.name", () -> "healing-connector");
		registry.add("slotkeeper.targets[0].slots[3].name", () -> "snapshotted");
		registry.add("slotkeeper.targets[0].slots[3].connector.url", () -> connect().url());
		registry.add("slotkeeper.targets[0].slots[3].connector.name", () -> "snapshotted-connector");
		registry.add("slotkeeper.targets[0].slots[3].resnapshot.mode", () -> "debezium-signal");
		registry.add("slotkeeper.targets[1].name", () -> "norepl");
		registry.add("slotkeeper.targets[0].slots[4].name", () -> "patroni_kept");
		registry.add("slotkeeper.targets[0].slots[4].managed-by", () -> "patroni");
		registry.add("slotkeeper.targets[0].slots[4].connector.url", () -> connect().url());
		registry.add("slotkeeper.targets[0].slots[4].connector.name", () -> "patroni-connector");
		registry.add("slotkeeper.targets[1].url", () -> postgres.jdbcUrl(DATABASE));
		registry.add("slotkeeper.targets[1].username", () -> "norepl");
		registry.add("slotkeeper.targets[1].heartbeat.enabled", () -> "false");
		registry.add("slotkeeper.targets[1].slots[0].name", () -> "norepl_snapshotted");
		registry.add("slotkeeper.targets[1].slots[0].resnapshot.signal-table", () -> "public.debezium_signal");
		registry.add("slotkeeper.targets[1].slots[0].resnapshot.collections[0]", () -> "public.orders");
		TestTokens.register(registry, VIEWER, OPERATOR);
	}

}
