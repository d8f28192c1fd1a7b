package io.slotkeeper.slot;

import java.time.Duration;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.http.MediaType;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import org.springframework.test.web.servlet.client.RestTestClient;

import io.slotkeeper.testbed.ConnectStub;
import io.slotkeeper.testbed.PostgresServer;
import io.slotkeeper.testbed.PostgresTestBed;
import io.slotkeeper.testbed.TestTokens;
import io.slotkeeper.testbed.Scrape;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Slots on a read replica through {@code ?node=}: a primary and a streaming standby of
 * it, with the standby snapshot on. On PostgreSQL 16+ a logical slot is created on the
 * standby promptly; before 16 the API explains why not.
 */
@Tag("pg-compat")
@Tag("pg-each")
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
class ReplicaApiTests {

	private static final String TOKEN = "replica-operator-token";

	private static PostgresServer primary;

	private static PostgresServer standby;

	private static final ConnectStub connect = new ConnectStub();

	@LocalServerPort
	int port;

	@DynamicPropertySource
	static synchronized void targets(DynamicPropertyRegistry registry) {
		if (primary == null) {
			primary = PostgresTestBed.dedicated(Map.of());
			primary.execute("postgres", "CREATE DATABASE app");
			primary.execute("app", "CREATE TABLE orders (id bigserial PRIMARY KEY)");
			standby = primary.standby();
			Runtime.getRuntime().addShutdownHook(new Thread(() -> {
				standby.close();
				primary.close();
			}));
			await().atMost(Duration.ofSeconds(10))
				.until(() -> "1".equals(
						standby.queryForString("postgres", "SELECT count(*) FROM pg_database WHERE datname = 'app'")));
		}
		registry.add("slotkeeper.targets[0].name", () -> "main");
		registry.add("slotkeeper.targets[0].url", () -> primary.jdbcUrl("app"));
		registry.add("slotkeeper.targets[0].username", primary::user);
		registry.add("slotkeeper.targets[0].heartbeat.interval", () -> "200ms");
		registry.add("slotkeeper.targets[0].heartbeat.standby-snapshot", () -> "true");
		// The primary's slot of that name has a connector: a replica's recreate must
		// leave it alone.
		registry.add("slotkeeper.targets[0].slots[0].name", () -> "on_replica");
		registry.add("slotkeeper.targets[0].slots[0].connector.url", connect::url);
		registry.add("slotkeeper.targets[0].slots[0].connector.name", () -> "primary-debezium");
		registry.add("slotkeeper.targets[0].replicas[0].name", () -> "replica1");
		registry.add("slotkeeper.targets[0].replicas[0].url", () -> standby.jdbcUrl("app"));
		registry.add("slotkeeper.targets[0].replicas[0].username", standby::user);
		registry.add("slotkeeper.targets[0].replicas[1].name", () -> "gone");
		registry.add("slotkeeper.targets[0].replicas[1].url",
				() -> "jdbc:postgresql://127.0.0.1:" + closedPort() + "/app");
		registry.add("slotkeeper.targets[0].replicas[1].username", standby::user);
		// A primary's URL that reaches the standby: a Service still pointing at a demoted
		// primary.
		registry.add("slotkeeper.targets[1].name", () -> "demoted");
		registry.add("slotkeeper.targets[1].url", () -> standby.jdbcUrl("app"));
		registry.add("slotkeeper.targets[1].username", standby::user);
		registry.add("slotkeeper.targets[1].heartbeat.enabled", () -> "false");
		registry.add("slotkeeper.targets[1].slots-poll-interval", () -> "200ms");
		TestTokens.register(registry, "unused-viewer-token", TOKEN);
	}

	private RestTestClient operator() {
		return RestTestClient.bindToServer()
			.baseUrl("http://localhost:" + this.port)
			.defaultHeader("Authorization", "Bearer " + TOKEN)
			.build();
	}

	@Test
	void logicalSlotOnTheStandbyIsCreatedPromptlyFrom16AndExplainedBefore() {
		int major = primary.majorVersion();
		long start = System.nanoTime();
		var response = operator().post()
			.uri("/api/v1/targets/main/slots?node=replica1")
			.contentType(MediaType.APPLICATION_JSON)
			.body(Map.of("name", "on_replica"))
			.exchange();
		long millis = (System.nanoTime() - start) / 1_000_000;
		if (major >= 16) {
			response.expectStatus()
				.isCreated()
				.expectHeader()
				.valueEquals("Location", "/api/v1/targets/main/slots/on_replica?node=replica1")
				.expectBody()
				.jsonPath("$.node")
				.isEqualTo("replica1");
			System.out.printf("logical slot created on the PG %d standby in %d ms (standby snapshot nudged)%n", major,
					millis);
			assertThat(standby.queryForString("postgres",
					"SELECT count(*) FROM pg_replication_slots WHERE slot_name = 'on_replica'"))
				.isEqualTo("1");
			operator().get()
				.uri("/api/v1/targets/main/slots?node=all")
				.exchange()
				.expectStatus()
				.isOk()
				.expectBody()
				.jsonPath("$[?(@.slotName == 'on_replica' && @.missing == false)].node")
				.isEqualTo(List.of("replica1"))
				.jsonPath("$[?(@.node == 'primary')].slotName")
				.value((names) -> assertThat(names.toString()).contains("standby_"));
			await().atMost(Duration.ofSeconds(10))
				.untilAsserted(() -> operator().get()
					.uri("/api/v1/targets/main")
					.exchange()
					.expectBody()
					.jsonPath("$.heartbeat.standbySnapshot")
					.isEqualTo("ok"));
			operator().post()
				.uri("/api/v1/targets/main/slots/on_replica/recreate?node=replica1&force=true&dryRun=true")
				.exchange()
				.expectStatus()
				.isOk()
				.expectBody()
				.jsonPath("$.steps")
				.value((steps) -> assertThat(steps.toString()).doesNotContain("primary-debezium"));
			operator().post()
				.uri("/api/v1/targets/main/slots/on_replica/recreate?node=replica1&force=true")
				.exchange()
				.expectStatus()
				.isOk()
				.expectBody()
				.jsonPath("$.newSlot.node")
				.isEqualTo("replica1");
			assertThat(connect.changes()).as("the primary's connector is not handed over to a replica's slot")
				.isEmpty();
			String scrape = Scrape.of(operator());
			assertThat(scrape).as("replica series carry the real target and a node tag, never a made-up target")
				.doesNotContain("target=\"main/")
				.containsPattern("slotkeeper_slot_recreations_total\\{[^}]*node=\"replica1\"[^}]*slot=\"on_replica\""
						+ "[^}]*target=\"main\"[^}]*\\} 1\\.0");
			operator().delete()
				.uri("/api/v1/targets/main/slots/on_replica?node=replica1")
				.exchange()
				.expectStatus()
				.isNoContent();
		}
		else {
			response.expectStatus()
				.isEqualTo(422)
				.expectBody()
				.jsonPath("$.detail")
				.value((detail) -> assertThat(detail.toString()).contains("PostgreSQL 16"));
			// The outcome is known once the first heartbeat has run.
			await().atMost(Duration.ofSeconds(10))
				.untilAsserted(() -> operator().get()
					.uri("/api/v1/targets/main")
					.exchange()
					.expectBody()
					.jsonPath("$.heartbeat.standbySnapshot")
					.value((outcome) -> assertThat(String.valueOf(outcome)).startsWith("not available")));
		}
	}

	@Test
	void aProblemOnAReplicaNamesTheTargetAndTheNode() {
		operator().get()
			.uri("/api/v1/targets/main/slots/not_there?node=replica1")
			.exchange()
			.expectStatus()
			.isNotFound()
			.expectBody()
			.jsonPath("$.type")
			.isEqualTo("urn:slotkeeper:problem:slot-not-found")
			.jsonPath("$.target")
			.isEqualTo("main")
			.jsonPath("$.node")
			.isEqualTo("replica1")
			.jsonPath("$.detail")
			.isEqualTo("Replica 'replica1' of target 'main' has no replication slot 'not_there'.");
	}

	@Test
	void aPrimaryUrlThatReachesAStandbyIsAFailureForReadsAndChanges() {
		operator().get()
			.uri("/api/v1/targets/demoted/slots")
			.exchange()
			.expectStatus()
			.isEqualTo(503)
			.expectBody()
			.jsonPath("$.detail")
			.value((detail) -> assertThat(detail.toString()).contains("is in recovery, a standby"));
		operator().post()
			.uri("/api/v1/targets/demoted/slots")
			.contentType(MediaType.APPLICATION_JSON)
			.body(Map.of("name", "on_demoted"))
			.exchange()
			.expectStatus()
			.isEqualTo(503);
		assertThat(standby.queryForString("postgres",
				"SELECT count(*) FROM pg_replication_slots WHERE slot_name = 'on_demoted'"))
			.isEqualTo("0");
		await().atMost(Duration.ofSeconds(10))
			.untilAsserted(() -> operator().get()
				.uri("/actuator/health/slots/demoted")
				.exchange()
				.expectBody()
				.jsonPath("$.details.error.message")
				.value((message) -> assertThat(message.toString()).contains("in recovery")));
	}

	@Test
	void everyNodeIsListedWhenOneReplicaIsDownWithAnEntrySayingWhy() {
		operator().get()
			.uri("/api/v1/targets/main/slots?node=all")
			.exchange()
			.expectStatus()
			.isOk()
			.expectBody()
			.jsonPath("$[?(@.node == 'primary')]")
			.isNotEmpty()
			.jsonPath("$[?(@.node == 'gone')].nodeError.message")
			.value((messages) -> assertThat(messages.toString()).contains("unavailable"));
		operator().get().uri("/api/v1/targets/main/slots?node=gone").exchange().expectStatus().isEqualTo(503);
	}

	private static int closedPort() {
		try (java.net.ServerSocket socket = new java.net.ServerSocket(0, 1,
				java.net.InetAddress.getLoopbackAddress())) {
			return socket.getLocalPort();
		}
		catch (java.io.IOException ex) {
			throw new java.io.UncheckedIOException(ex);
		}
	}

	@Test
	void unknownNodeIs404() {
		operator().get()
			.uri("/api/v1/targets/main/slots?node=replica9")
			.exchange()
			.expectStatus()
			.isNotFound()
			.expectBody()
			.jsonPath("$.type")
			.isEqualTo("urn:slotkeeper:problem:node-not-found");
	}

}
