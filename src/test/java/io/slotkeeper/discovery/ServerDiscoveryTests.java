package io.slotkeeper.discovery;

import java.io.IOException;
import java.time.Duration;
import java.util.Map;

import io.micrometer.core.instrument.MeterRegistry;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import org.springframework.test.web.servlet.client.RestTestClient;

import io.slotkeeper.audit.AuditJournal;
import io.slotkeeper.fleet.Fleet;
import io.slotkeeper.fleet.Target;
import io.slotkeeper.heartbeat.Heartbeats;
import io.slotkeeper.testbed.PostgresServer;
import io.slotkeeper.testbed.PostgresTestBed;
import io.slotkeeper.testbed.RefusedPort;
import io.slotkeeper.testbed.TestTokens;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Servers configured once, on a real PostgreSQL: a database that holds a logical slot
 * joins the fleet as {@code <server>-<database>} with the server's settings and its
 * override, is heartbeated through one session of its own and polled through the server's
 * one session, lists only its own slots, and leaves the fleet (sessions closed, meters
 * gone, audited) once its last logical slot has been gone for {@code retire-after}; a
 * database without a slot or excluded never joins; a listed one joins without a slot; a
 * server that cannot be read is DOWN and retires nothing; databases past a server's
 * session budget do not join and are named in its health.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
@DirtiesContext
class ServerDiscoveryTests {

	private static final String VIEWER = "viewer-token-discovery";

	private static PostgresServer server;

	@Autowired
	Fleet fleet;

	@Autowired
	Heartbeats heartbeats;

	@Autowired
	AuditJournal journal;

	@Autowired
	MeterRegistry registry;

	@LocalServerPort
	int port;

	@DynamicPropertySource
	static void properties(DynamicPropertyRegistry registry) throws IOException {
		server = PostgresTestBed.dedicated(Map.of("shared_preload_libraries", "pg_stat_statements"));
		server.execute("postgres", "CREATE EXTENSION pg_stat_statements");
		for (String database : new String[] { "billing", "notes", "scratch", "tiny1", "tiny2" }) {
			server.execute("postgres", "CREATE DATABASE " + database);
		}
		server.execute("billing", "SELECT pg_create_logical_replication_slot('billing_cdc', 'pgoutput')");
		server.execute("scratch", "SELECT pg_create_logical_replication_slot('scratch_cdc', 'pgoutput')");
		int closed = RefusedPort.PORT;
		registry.add("slotkeeper.servers[0].name", () -> "main");
		registry.add("slotkeeper.servers[0].url", () -> server.jdbcUrl("postgres"));
		registry.add("slotkeeper.servers[0].username", server::user);
		registry.add("slotkeeper.servers[0].exclude", () -> "scratch");
		registry.add("slotkeeper.servers[0].heartbeat.interval", () -> "500ms");
		registry.add("slotkeeper.servers[0].slots-poll-interval", () -> "1s");
		registry.add("slotkeeper.servers[0].retire-after", () -> "2s");
		registry.add("slotkeeper.servers[0].overrides[0].name", () -> "billing");
		registry.add("slotkeeper.servers[0].overrides[0].heartbeat.interval", () -> "300ms");
		registry.add("slotkeeper.servers[1].name", () -> "listed");
		registry.add("slotkeeper.servers[1].url", () -> server.jdbcUrl("postgres"));
		registry.add("slotkeeper.servers[1].username", server::user);
		registry.add("slotkeeper.servers[1].databases", () -> "notes");
		registry.add("slotkeeper.servers[1].heartbeat.interval", () -> "500ms");
		// The server again as its own "replica": each database's target gets it, in that
		// database.
		registry.add("slotkeeper.servers[1].replicas[0].name", () -> "self");
		registry.add("slotkeeper.servers[1].replicas[0].url", () -> server.jdbcUrl("postgres"));
		registry.add("slotkeeper.servers[2].name", () -> "gone");
		registry.add("slotkeeper.servers[2].url", () -> "jdbc:postgresql://127.0.0.1:" + closed + "/postgres");
		registry.add("slotkeeper.servers[2].username", () -> "keeper");
		registry.add("slotkeeper.servers[2].slots-poll-interval", () -> "1s");
		registry.add("slotkeeper.servers[2].connection.connect-timeout", () -> "1s");
		registry.add("slotkeeper.servers[3].name", () -> "small");
		registry.add("slotkeeper.servers[3].url", () -> server.jdbcUrl("postgres"));
		registry.add("slotkeeper.servers[3].username", server::user);
		registry.add("slotkeeper.servers[3].databases", () -> "tiny1,tiny2");
		registry.add("slotkeeper.servers[3].max-sessions", () -> "2");
		TestTokens.register(registry, VIEWER, "operator-token-discovery");
	}

	@AfterAll
	static void stopServer() {
		server.close();
	}

	@Test
	void aServersDatabasesJoinWhenTheyHoldALogicalSlotAndLeaveWhenTheLastOneIsGone() {
		await("billing joins and beats").atMost(Duration.ofSeconds(30)).until(() -> up("main-billing"));
		Target billing = this.fleet.get("main-billing");
		assertThat(billing.properties().heartbeat().interval()).as("the override").isEqualTo(Duration.ofMillis(300));
		assertThat(billing.properties().url()).endsWith("/billing");
		assertThat(this.fleet.find("main-notes")).as("no logical slot").isEmpty();
		assertThat(this.fleet.find("main-scratch")).as("excluded").isEmpty();
		await("the listed database joins without a slot").atMost(Duration.ofSeconds(30))
			.until(() -> up("listed-notes"));
		assertThat(this.fleet.get("listed-notes").properties().replicas()).singleElement().satisfies((replica) -> {
			assertThat(replica.url()).as("the server's replica, in the database").endsWith("/notes");
			assertThat(replica.username()).as("the server's role").isEqualTo(server.user());
		});
		client().get()
			.uri("/api/v1/targets/listed-notes/slots?node=self")
			.exchange()
			.expectStatus()
			.isOk()
			.expectBody()
			.jsonPath("$")
			.isArray();
		client().get().uri("/api/v1/targets/listed-notes/slots?node=other").exchange().expectStatus().isNotFound();
		assertThat(audited("target.discovered", "main-billing")).isTrue();
		assertThat(databasesGauge("main")).isEqualTo(1);

		server.execute("postgres", "CREATE DATABASE orders");
		server.execute("orders", "SELECT pg_create_logical_replication_slot('orders_cdc', 'pgoutput')");
		long created = System.nanoTime();
		await("a new database with a slot joins within a poll").atMost(Duration.ofSeconds(10))
			.until(() -> up("main-orders"));
		System.out.printf("a new database's slot was heartbeated %.1f s after it was created (poll 1 s)%n",
				(System.nanoTime() - created) / 1e9);
		assertThat(this.fleet.get("main-orders").properties().heartbeat().interval()).isEqualTo(Duration.ofMillis(500));
		await().atMost(Duration.ofSeconds(5)).until(() -> databasesGauge("main") == 2);
		assertThat(sessionsIn("orders")).as("one heartbeat session in a discovered database").isEqualTo(1);
		assertThat(sessionsIn("billing")).isEqualTo(1);

		String listing = client().get()
			.uri("/api/v1/targets/main-orders/slots")
			.exchange()
			.expectStatus()
			.isOk()
			.returnResult(String.class)
			.getResponseBody();
		assertThat(listing).contains("orders_cdc").doesNotContain("billing_cdc").doesNotContain("scratch_cdc");
		client().get()
			.uri("/api/v1/targets/main-orders")
			.exchange()
			.expectStatus()
			.isOk()
			.expectBody()
			.jsonPath("$.server")
			.isEqualTo("main")
			.jsonPath("$.database")
			.isEqualTo("orders");

		server.execute("orders", "SELECT pg_drop_replication_slot('orders_cdc')");
		await("the target is retired after retire-after").atMost(Duration.ofSeconds(15))
			.until(() -> this.fleet.find("main-orders").isEmpty());
		await("audited").atMost(Duration.ofSeconds(5)).until(() -> audited("target.retired", "main-orders"));
		await("its meters removed").atMost(Duration.ofSeconds(5))
			.until(() -> this.registry.getMeters()
				.stream()
				.noneMatch((meter) -> "main-orders".equals(meter.getId().getTag("target"))));
		await("its sessions closed").atMost(Duration.ofSeconds(10)).until(() -> sessionsIn("orders") == 0);
		assertThat(this.fleet.find("main-billing")).as("the others stay").isPresent();
		assertThat(databasesGauge("main")).isEqualTo(1);
		client().get()
			.uri("/actuator/health/servers")
			.exchange()
			.expectStatus()
			.isEqualTo(503)
			.expectBody()
			.jsonPath("$.components.gone.status")
			.isEqualTo("DOWN")
			.jsonPath("$.components.gone.details.error")
			.value(String.class, (error) -> assertThat(error).startsWith("Server 'gone' is unavailable"))
			.jsonPath("$.components.main.status")
			.isEqualTo("UP")
			.jsonPath("$.components.main.details.databases")
			.isEqualTo(1)
			.jsonPath("$.components.main.details.maxSessions")
			.isEqualTo(derivedBudget());
	}

	@Test
	void aServerWhoseDatabasesNeedMoreSessionsThanItsBudgetKeepsTheFirstAndSaysWhichAreUncovered() {
		await("the first listed database joins").atMost(Duration.ofSeconds(30)).until(() -> up("small-tiny1"));
		assertThat(this.fleet.find("small-tiny2")).as("past max-sessions").isEmpty();
		assertThat(sessionsIn("tiny2")).isZero();
		assertThat(this.registry.get("slotkeeper.server.databases.uncovered").tag("server", "small").gauge().value())
			.isEqualTo(1);
		client().get()
			.uri("/actuator/health/servers/small")
			.exchange()
			.expectStatus()
			.isEqualTo(503)
			.expectBody()
			.jsonPath("$.status")
			.isEqualTo("DOWN")
			.jsonPath("$.details.uncovered[0]")
			.isEqualTo("tiny2")
			.jsonPath("$.details.maxSessions")
			.isEqualTo(2)
			.jsonPath("$.details.sessionsNeeded")
			.isEqualTo(3);
	}

	@Test
	void theServersSlotsAreReadOncePerPollForAllItsDatabases() {
		await("billing and the listed database beat").atMost(Duration.ofSeconds(30))
			.until(() -> up("main-billing") && up("listed-notes"));
		long before = slotReads();
		long start = System.nanoTime();
		await("both stay up for 5 s").during(Duration.ofSeconds(5))
			.atMost(Duration.ofSeconds(7))
			.until(() -> up("main-billing") && up("listed-notes"));
		double seconds = (System.nanoTime() - start) / 1e9;
		long reads = slotReads() - before;
		System.out.printf(
				"%d reads of pg_replication_slots in %.1f s for server 'main' (poll 1 s) and 'listed' (30 s)%n", reads,
				seconds);
		// Read per database, main's two databases and its scan would read three times a
		// second.
		assertThat(reads).isLessThanOrEqualTo((long) (seconds / 0.9) + 3);
	}

	private boolean up(String target) {
		return this.fleet.find(target)
			.map(this.heartbeats::of)
			.map((heartbeat) -> "UP".equals(heartbeat.status().health()) && heartbeat.status().lastSuccessAt() != null)
			.orElse(false);
	}

	private boolean audited(String action, String target) {
		return this.journal.entries()
			.stream()
			.anyMatch((entry) -> action.equals(entry.action()) && target.equals(entry.target()));
	}

	private double databasesGauge(String server) {
		return this.registry.get("slotkeeper.server.databases").tag("server", server).gauge().value();
	}

	private static int derivedBudget() {
		int connections = Integer.parseInt(server.queryForString("postgres", "SHOW max_connections"));
		int reserved = Integer.parseInt(server.queryForString("postgres", "SHOW superuser_reserved_connections"));
		return Math.max(2, (connections - reserved) / 10);
	}

	private static long sessionsIn(String database) {
		return Long.parseLong(server.queryForString("postgres", "SELECT count(*) FROM pg_stat_activity WHERE"
				+ " application_name = 'slot-keeper' AND datname = '" + database + "'"));
	}

	private static long slotReads() {
		return Long.parseLong(server.queryForString("postgres", "SELECT coalesce(sum(calls), 0) FROM"
				+ " pg_stat_statements WHERE query LIKE '%FROM pg_catalog.pg_replication_slots ORDER BY slot_name%'"));
	}

	private RestTestClient client() {
		return RestTestClient.bindToServer()
			.baseUrl("http://localhost:" + this.port)
			.defaultHeader("Authorization", "Bearer " + VIEWER)
			.build();
	}

}
