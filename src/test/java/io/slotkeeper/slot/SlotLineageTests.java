package io.slotkeeper.slot;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.http.MediaType;
import org.springframework.test.web.servlet.client.RestTestClient;

import io.slotkeeper.SlotKeeperApplication;
import io.slotkeeper.security.TokenHashes;
import io.slotkeeper.testbed.PostgresServer;
import io.slotkeeper.testbed.PostgresTestBed;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Every recreate starts the slot's next epoch: in the recreate's answer, the listing and
 * the overview of every instance, and as the {@code lineage} label of the slot's meters;
 * the previous epoch's last confirmed position is kept with it. Two instances on one
 * target, and a database whose {@code slotkeeper} schema another role owns.
 */
@Tag("pg-compat")
class SlotLineageTests {

	private static final String TOKEN = "lineage-operator-token";

	private static final JsonMapper json = JsonMapper.builder().build();

	private static PostgresServer server;

	private static final List<ConfigurableApplicationContext> instances = new ArrayList<>();

	private static final List<RestTestClient> clients = new ArrayList<>();

	@BeforeAll
	static void start() {
		server = PostgresTestBed.dedicated(Map.of());
		server.execute("postgres", "CREATE DATABASE app", "CREATE DATABASE hostile", "CREATE ROLE mallory");
		server.execute("app", "SELECT pg_create_logical_replication_slot('cdc', 'pgoutput')");
		// An owner who is not our friend made the schema slot-keeper keeps its tables in.
		server.execute("hostile", "CREATE SCHEMA slotkeeper AUTHORIZATION mallory",
				"SELECT pg_create_logical_replication_slot('hostile_cdc', 'pgoutput')");
		for (int i = 0; i < 2; i++) {
			ConfigurableApplicationContext app = new SpringApplicationBuilder(SlotKeeperApplication.class).run(
					"--server.port=0", "--management.server.port=0", "--slotkeeper.instance-id=instance-" + i,
					"--slotkeeper.targets[0].name=orders", "--slotkeeper.targets[0].url=" + server.jdbcUrl("app"),
					"--slotkeeper.targets[0].username=" + server.user(),
					"--slotkeeper.targets[0].heartbeat.interval=200ms",
					"--slotkeeper.targets[0].slots-poll-interval=200ms", "--slotkeeper.targets[1].name=hostile",
					"--slotkeeper.targets[1].url=" + server.jdbcUrl("hostile"),
					"--slotkeeper.targets[1].username=" + server.user(),
					"--slotkeeper.targets[1].heartbeat.interval=200ms",
					"--slotkeeper.targets[1].slots-poll-interval=200ms", "--slotkeeper.api.tokens[0].name=ci",
					"--slotkeeper.api.tokens[0].role=operator",
					"--slotkeeper.api.tokens[0].sha256=" + TokenHashes.sha256Hex(TOKEN), "--logging.level.root=WARN");
			instances.add(app);
			clients.add(RestTestClient.bindToServer()
				.baseUrl("http://localhost:" + app.getEnvironment().getProperty("local.server.port"))
				.defaultHeader("Authorization", "Bearer " + TOKEN)
				.build());
		}
	}

	@AfterAll
	static void stop() {
		instances.forEach(ConfigurableApplicationContext::close);
		if (server != null) {
			server.close();
		}
	}

	@Test
	void eachRecreateStartsTheNextEpochOnEveryInstanceWithThePreviousPositionKept() {
		await().atMost(Duration.ofSeconds(20))
			.ignoreExceptions()
			.until(() -> lineage(0, "orders", "cdc").get("epoch").asInt() == 1
					&& lineage(1, "orders", "cdc").get("epoch").asInt() == 1);
		for (int epoch = 2; epoch <= 3; epoch++) {
			// Through either instance: the one that recreates writes it, the other reads
			// it on its heartbeat session.
			int through = epoch % 2;
			String before = server.queryForString("app",
					"SELECT confirmed_flush_lsn::text FROM pg_replication_slots WHERE slot_name = 'cdc'");
			JsonNode recreated = recreate(through, "orders", "cdc");
			assertThat(recreated.at("/lineage/epoch").asInt()).isEqualTo(epoch);
			assertThat(recreated.at("/lineage/previousConfirmedFlushLsn").asString()).isEqualTo(before);
			int expected = epoch;
			for (int instance = 0; instance < 2; instance++) {
				int which = instance;
				JsonNode lineage = await().atMost(Duration.ofSeconds(10))
					.ignoreExceptions()
					.until(() -> lineage(which, "orders", "cdc"), (read) -> read.get("epoch").asInt() == expected);
				assertThat(lineage.get("previousConfirmedFlushLsn").asString()).isEqualTo(before);
				assertThat(lineage.get("recreatedAt").isString()).isTrue();
			}
			assertThat(
					server.queryForString("app",
							"SELECT epoch || ' ' || previous_confirmed_flush_lsn"
									+ " FROM slotkeeper.slot_lineage WHERE slot = 'cdc'"))
				.isEqualTo(epoch + " " + before);
		}
		// The owner exports the slot's meters under its epoch; the earlier epochs' series
		// are gone.
		await().atMost(Duration.ofSeconds(10))
			.until(() -> scrape(0) + scrape(1),
					(both) -> both.contains("lineage=\"3\",slot=\"cdc\"")
							&& !both.contains("lineage=\"2\",slot=\"cdc\"")
							&& !both.matches("(?s).*lineage=\"1\",slot=\"cdc\",[^}]*target=\"orders\".*"));
		assertThat(json
			.readTree(clients.get(0)
				.get()
				.uri("/api/v1/overview")
				.exchange()
				.expectStatus()
				.isOk()
				.expectBody(String.class)
				.returnResult()
				.getResponseBody())
			.toString()).contains("\"epoch\":3");

		// Dropped through slot-keeper and made again by its name: another slot, the next
		// epoch.
		String dropped = server.queryForString("app",
				"SELECT confirmed_flush_lsn::text FROM pg_replication_slots WHERE slot_name = 'cdc'");
		clients.get(0).delete().uri("/api/v1/targets/orders/slots/cdc").exchange().expectStatus().is2xxSuccessful();
		clients.get(1)
			.post()
			.uri("/api/v1/targets/orders/slots")
			.contentType(MediaType.APPLICATION_JSON)
			.body("{\"name\":\"cdc\",\"plugin\":\"pgoutput\"}")
			.exchange()
			.expectStatus()
			.isCreated();
		for (int instance = 0; instance < 2; instance++) {
			int which = instance;
			JsonNode lineage = await().atMost(Duration.ofSeconds(10))
				.ignoreExceptions()
				.until(() -> lineage(which, "orders", "cdc"), (read) -> read.get("epoch").asInt() == 4);
			assertThat(lineage.get("previousConfirmedFlushLsn").asString()).isEqualTo(dropped);
		}
	}

	@Test
	void aSchemaAnotherRoleOwnsIsNeitherWrittenNorReadAndTheEpochIsCountedInMemory() {
		await().atMost(Duration.ofSeconds(20))
			.ignoreExceptions()
			.until(() -> lineage(0, "hostile", "hostile_cdc").get("epoch").asInt() == 1);
		JsonNode recreated = recreate(0, "hostile", "hostile_cdc");
		assertThat(recreated.at("/lineage/epoch").asInt()).isEqualTo(2);
		await().atMost(Duration.ofSeconds(10))
			.ignoreExceptions()
			.until(() -> lineage(0, "hostile", "hostile_cdc").get("epoch").asInt() == 2);
		assertThat(server.queryForString("hostile",
				"SELECT count(*) FROM pg_class c JOIN pg_namespace n"
						+ " ON n.oid = c.relnamespace WHERE n.nspname = 'slotkeeper'"))
			.as("tables in mallory's schema")
			.isEqualTo("0");
	}

	private static JsonNode recreate(int instance, String target, String slot) {
		return json.readTree(clients.get(instance)
			.post()
			.uri("/api/v1/targets/" + target + "/slots/" + slot + "/recreate?force=true")
			.exchange()
			.expectStatus()
			.isOk()
			.expectBody(String.class)
			.returnResult()
			.getResponseBody());
	}

	private static JsonNode lineage(int instance, String target, String slot) {
		return json
			.readTree(clients.get(instance)
				.get()
				.uri("/api/v1/targets/" + target + "/slots/" + slot)
				.exchange()
				.expectStatus()
				.isOk()
				.expectBody(String.class)
				.returnResult()
				.getResponseBody())
			.get("lineage");
	}

	private static String scrape(int instance) {
		String port = instances.get(instance).getEnvironment().getProperty("local.management.port");
		return RestTestClient.bindToServer()
			.baseUrl("http://localhost:" + port)
			.build()
			.get()
			.uri("/actuator/prometheus")
			.exchange()
			.expectBody(String.class)
			.returnResult()
			.getResponseBody();
	}

}
