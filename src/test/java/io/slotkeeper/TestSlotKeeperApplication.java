package io.slotkeeper;

import java.security.SecureRandom;
import java.util.Base64;
import java.util.HashMap;
import java.util.Map;

import org.springframework.boot.SpringApplication;
import org.springframework.context.ConfigurableApplicationContext;

import io.slotkeeper.security.TokenHashes;
import io.slotkeeper.testbed.PostgresServer;
import io.slotkeeper.testbed.PostgresTestBed;

/**
 * The demo behind {@code ./mvnw spring-boot:test-run}: an embedded PostgreSQL with
 * logical decoding, a database {@code demo} with a publication and a pgoutput slot
 * {@code demo_slot}, and slot-keeper heartbeating it every 5 s; a server entry
 * {@code cluster} for the same PostgreSQL that finds its databases with logical slots:
 * {@code billing} at start, {@code inventory} (created with its slot a few seconds after
 * start) as it appears. A viewer and an operator token are made up for this run and
 * printed once.
 */
public final class TestSlotKeeperApplication {

	private TestSlotKeeperApplication() {
	}

	/**
	 * Starts the demo.
	 * @param args passed to slot-keeper; {@code --slotkeeper...} overrides the demo's
	 * settings
	 */
	public static void main(String[] args) {
		// A small max_slot_wal_keep_size lets the README's runbook lose demo_slot on
		// purpose in a few milliseconds.
		PostgresServer postgres = PostgresTestBed.dedicated(Map.of("max_slot_wal_keep_size", "1MB"));
		postgres.execute("postgres", "CREATE DATABASE demo");
		postgres.execute("demo", "CREATE TABLE orders (id bigserial PRIMARY KEY, item text NOT NULL)",
				"CREATE PUBLICATION demo_pub FOR TABLE orders",
				"SELECT pg_create_logical_replication_slot('demo_slot', 'pgoutput')");
		postgres.execute("postgres", "CREATE DATABASE billing");
		postgres.execute("billing", "SELECT pg_create_logical_replication_slot('billing_slot', 'pgoutput')");
		String viewerToken = newToken();
		String operatorToken = newToken();
		Map<String, Object> demo = new HashMap<>();
		demo.put("slotkeeper.targets[0].name", "demo");
		demo.put("slotkeeper.targets[0].url", postgres.jdbcUrl("demo"));
		demo.put("slotkeeper.targets[0].username", postgres.user());
		demo.put("slotkeeper.targets[0].heartbeat.interval", "5s");
		demo.put("slotkeeper.targets[0].slots-poll-interval", "5s");
		demo.put("slotkeeper.servers[0].name", "cluster");
		demo.put("slotkeeper.servers[0].url", postgres.jdbcUrl("postgres"));
		demo.put("slotkeeper.servers[0].username", postgres.user());
		demo.put("slotkeeper.servers[0].exclude", "demo");
		demo.put("slotkeeper.servers[0].heartbeat.interval", "5s");
		demo.put("slotkeeper.servers[0].slots-poll-interval", "5s");
		demo.put("slotkeeper.api.tokens[0].name", "demo-viewer");
		demo.put("slotkeeper.api.tokens[0].role", "viewer");
		demo.put("slotkeeper.api.tokens[0].sha256", TokenHashes.sha256Hex(viewerToken));
		demo.put("slotkeeper.api.tokens[1].name", "demo-operator");
		demo.put("slotkeeper.api.tokens[1].role", "operator");
		demo.put("slotkeeper.api.tokens[1].sha256", TokenHashes.sha256Hex(operatorToken));
		SpringApplication application = new SpringApplication(SlotKeeperApplication.class);
		application.setDefaultProperties(demo);
		ConfigurableApplicationContext context = application.run(args);
		context.registerShutdownHook();
		Runtime.getRuntime().addShutdownHook(new Thread(postgres::close, "demo-postgres-shutdown"));
		String port = context.getEnvironment().getProperty("local.server.port", "8080");
		Thread later = new Thread(() -> createInventoryLater(postgres), "demo-inventory");
		later.setDaemon(true);
		later.start();
		// The demo's tokens exist only for this run; printing them once is how the person
		// running it gets them.
		System.out.printf("%n=== slot-keeper demo ===%nPostgreSQL: %s (slot demo_slot, publication demo_pub)%n"
				+ "psql: psql -h localhost -p %d -U postgres demo%n" + "VIEWER_TOKEN=%s%nOPERATOR_TOKEN=%s%n"
				+ "curl -s -H \"Authorization: Bearer $VIEWER_TOKEN\" http://localhost:%s/api/v1/targets%n"
				+ "Operator page: http://localhost:%s/ (paste OPERATOR_TOKEN)%n"
				+ "Server 'cluster': databases with logical slots join as cluster-<database> (billing now, inventory in"
				+ " a few seconds)%n%n", postgres.jdbcUrl("demo"), postgres.port(), viewerToken, operatorToken, port,
				port);
	}

	// The second database appears while slot-keeper runs, as a new connector's would: it
	// joins within one poll.
	private static void createInventoryLater(PostgresServer postgres) {
		try {
			Thread.sleep(5000);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			return;
		}
		postgres.execute("postgres", "CREATE DATABASE inventory");
		postgres.execute("inventory", "SELECT pg_create_logical_replication_slot('inventory_slot', 'pgoutput')");
		System.out.printf("%nCreated database inventory with slot inventory_slot: it joins as cluster-inventory%n%n");
	}

	private static String newToken() {
		byte[] bytes = new byte[24];
		new SecureRandom().nextBytes(bytes);
		return Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
	}

}
