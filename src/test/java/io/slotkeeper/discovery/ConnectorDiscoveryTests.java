package io.slotkeeper.discovery;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
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

import io.slotkeeper.config.ResnapshotProperties;
import io.slotkeeper.fleet.Fleet;
import io.slotkeeper.fleet.Target;
import io.slotkeeper.testbed.OpenApiResponses;
import io.slotkeeper.testbed.PostgresServer;
import io.slotkeeper.testbed.PostgresTestBed;
import io.slotkeeper.testbed.StrimziResources;
import io.slotkeeper.testbed.TestTokens;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Connectors found in Strimzi {@code KafkaConnector} resources (listed from a Kubernetes
 * API stand-in) and matched to the slots of a real PostgreSQL: a Debezium connector
 * naming the server by an alias becomes the slot's connector, marked discovered, with the
 * re-snapshot its signal table allows; a connector named in a slot's configured policy
 * wins; a second connector of one slot is not used; a connector on no target is reported
 * unprotected; other kinds of connector are ignored; the password in a connector's
 * configuration is never kept or shown; a source that stops answering keeps what it
 * listed.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
@DirtiesContext
class ConnectorDiscoveryTests {

	private static final String VIEWER = "viewer-token-connectors";

	private static final String POSTGRES = "io.debezium.connector.postgresql.PostgresConnector";

	private static PostgresServer server;

	private static StrimziResources kubernetes;

	@Autowired
	Fleet fleet;

	@Autowired
	MeterRegistry registry;

	@LocalServerPort
	int port;

	@DynamicPropertySource
	static void properties(DynamicPropertyRegistry registry) throws IOException {
		server = PostgresTestBed.dedicated(Map.of());
		server.execute("postgres", "CREATE DATABASE shop", "CREATE DATABASE ledger");
		server.execute("shop", "SELECT pg_create_logical_replication_slot('debezium', 'pgoutput')");
		server.execute("ledger", "SELECT pg_create_logical_replication_slot('ledger_cdc', 'pgoutput')");
		Path token = Files.createTempFile("sa-token", "");
		Files.writeString(token, "connectors-sa-token");
		kubernetes = new StrimziResources("connectors-sa-token", "v1");
		kubernetes.createConnector("kafka", "shop-cdc", Map.of("class", POSTGRES, "config",
				Map.of("database.hostname", "PG.Prod.svc", "database.port", server.port(), "database.dbname", "shop",
						"database.password", "hunter2", "signal.data.collection", "public.debezium_signal",
						"table.include.list", "public.orders", "topic.prefix", "shop")));
		// A second connector of ledger's slot, whose configured connector wins over both.
		// (Two found connectors of
		// one slot are used by neither: ConnectorMatchesTests.)
		kubernetes.createConnector("kafka", "shop-cdc-copy",
				Map.of("class", POSTGRES, "config", Map.of("database.hostname", server.host(), "database.port",
						server.port(), "database.dbname", "ledger", "slot.name", "ledger_cdc")));
		kubernetes.createConnector("kafka", "ledger-cdc",
				Map.of("class", POSTGRES, "config", Map.of("database.hostname", server.host(), "database.port",
						server.port(), "database.dbname", "ledger", "slot.name", "ledger_cdc")));
		kubernetes.createConnector("kafka", "elsewhere", Map.of("class", "PostgresConnector", "config",
				Map.of("database.hostname", "other-db.prod.svc", "database.dbname", "crm", "slot.name", "crm_cdc")));
		kubernetes.createConnector("kafka", "sink", Map.of("class", "io.confluent.connect.jdbc.JdbcSinkConnector",
				"config", Map.of("connection.url", "jdbc:postgresql://other-db/crm")));
		registry.add("slotkeeper.servers[0].name", () -> "main");
		registry.add("slotkeeper.servers[0].url", () -> server.jdbcUrl("postgres"));
		registry.add("slotkeeper.servers[0].username", server::user);
		registry.add("slotkeeper.servers[0].exclude", () -> "ledger");
		registry.add("slotkeeper.servers[0].aliases", () -> "pg.prod.svc");
		registry.add("slotkeeper.servers[0].slots-poll-interval", () -> "500ms");
		registry.add("slotkeeper.targets[0].name", () -> "ledger");
		registry.add("slotkeeper.targets[0].url", () -> server.jdbcUrl("ledger"));
		registry.add("slotkeeper.targets[0].username", server::user);
		registry.add("slotkeeper.targets[0].slots-poll-interval", () -> "500ms");
		registry.add("slotkeeper.targets[0].slots[0].name", () -> "ledger_cdc");
		registry.add("slotkeeper.targets[0].slots[0].connector.url", () -> "http://127.0.0.1:9");
		registry.add("slotkeeper.targets[0].slots[0].connector.name", () -> "ledger-by-hand");
		registry.add("slotkeeper.strimzi.api-server", kubernetes::url);
		registry.add("slotkeeper.strimzi.service-account-token-file", token::toString);
		registry.add("slotkeeper.connector-discovery.strimzi-namespaces", () -> "kafka");
		registry.add("slotkeeper.connector-discovery.interval", () -> "1s");
		registry.add("slotkeeper.connector-discovery.resnapshot-tables", () -> "changed");
		TestTokens.register(registry, VIEWER, "operator-token-connectors");
	}

	@AfterAll
	static void stop() {
		kubernetes.close();
		server.close();
	}

	@Test
	void aDebeziumConnectorFoundInAKafkaConnectorResourceBecomesItsSlotsConnectorAndOneOnNoTargetIsUnprotected() {
		await("main-shop found with its connector").atMost(Duration.ofSeconds(30))
			.until(() -> this.fleet.find("main-shop")
				.flatMap((target) -> target.slots().connectorOf("debezium"))
				.isPresent());
		Target shop = this.fleet.get("main-shop");
		assertThat(shop.slots().connector("debezium").name()).isEqualTo("shop-cdc");
		assertThat(shop.slots().connector("debezium").strimzi().namespace()).as("changed through its resource")
			.isEqualTo("kafka");
		assertThat(shop.slots().connectorDiscovered("debezium")).isTrue();
		assertThat(shop.slots().policy("debezium").orElseThrow().resnapshot().mode())
			.as("its signal table makes the re-snapshot possible")
			.isEqualTo(ResnapshotProperties.Mode.DEBEZIUM_SIGNAL);
		assertThat(shop.slots().policy("debezium").orElseThrow().resnapshot().tables())
			.as("only the changed tables, as connector-discovery.resnapshot-tables says")
			.isEqualTo(ResnapshotProperties.Tables.CHANGED);
		assertThat(shop.slots().policy("debezium").orElseThrow().resnapshot().collections())
			.as("its table.include.list: the table counters are sampled for these, not the whole database")
			.containsExactly("public.orders");
		Target ledger = this.fleet.get("ledger");
		assertThat(ledger.slots().connector("ledger_cdc").name()).as("the configured connector wins")
			.isEqualTo("ledger-by-hand");
		assertThat(ledger.slots().connectorDiscovered("ledger_cdc")).isFalse();

		String connectors = client().get()
			.uri("/api/v1/connectors")
			.exchange()
			.expectStatus()
			.isOk()
			.returnResult(String.class)
			.getResponseBody();
		assertThat(OpenApiResponses.contract().outside("/api/v1/connectors", connectors))
			.as("the listing against its schema in openapi.yaml")
			.isEmpty();
		assertThat(connectors).doesNotContain("hunter2").doesNotContain("sink");
		client().get()
			.uri("/api/v1/connectors")
			.exchange()
			.expectBody()
			.jsonPath("$.sources[0].source")
			.isEqualTo("strimzi namespace kafka")
			.jsonPath("$.sources[0].error")
			.doesNotExist()
			.jsonPath("$.connectors.length()")
			.isEqualTo(5)
			.jsonPath("$.connectors[0].name")
			.isEqualTo("ledger-by-hand")
			.jsonPath("$.connectors[0].source")
			.isEqualTo("configured (target ledger)")
			.jsonPath("$.connectors[0].used")
			.isEqualTo(true)
			.jsonPath("$.connectors[?(@.name == 'shop-cdc')].target")
			.isEqualTo("main-shop")
			.jsonPath("$.connectors[?(@.name == 'shop-cdc')].used")
			.isEqualTo(true)
			.jsonPath("$.connectors[?(@.name == 'shop-cdc')].endpoint")
			.isEqualTo("pg.prod.svc:" + server.port())
			.jsonPath("$.connectors[?(@.name == 'shop-cdc-copy')].used")
			.isEqualTo(false)
			.jsonPath("$.connectors[?(@.name == 'ledger-cdc')].problem")
			.value((problem) -> assertThat(problem.toString()).contains("ledger-by-hand"))
			.jsonPath("$.connectors[?(@.name == 'elsewhere')].unprotected")
			.isEqualTo(true)
			.jsonPath("$.connectors[?(@.name == 'elsewhere')].endpoint")
			.isEqualTo("other-db.prod.svc:5432");
		await("the gauges, as of the next listing").atMost(Duration.ofSeconds(10)).untilAsserted(() -> {
			assertThat(this.registry.get("slotkeeper.connectors.unprotected").gauge().value()).isEqualTo(1);
			assertThat(this.registry.get("slotkeeper.connectors.discovered").gauge().value()).isEqualTo(1);
		});

		await("the listing shows the slot's connector as discovered").atMost(Duration.ofSeconds(10))
			.untilAsserted(() -> client().get()
				.uri("/api/v1/targets/main-shop/slots")
				.exchange()
				.expectBody()
				.jsonPath("$[?(@.slotName == 'debezium')].connector.connector")
				.isEqualTo("shop-cdc")
				.jsonPath("$[?(@.slotName == 'debezium')].connectorDiscovered")
				.isEqualTo(true));
		client().get()
			.uri("/api/v1/targets/ledger/slots")
			.exchange()
			.expectBody()
			.jsonPath("$[?(@.slotName == 'ledger_cdc')].connectorDiscovered")
			.isEqualTo(false);

		kubernetes.forbid("kafka");
		await("the failed listing is said").atMost(Duration.ofSeconds(10))
			.untilAsserted(() -> client().get()
				.uri("/api/v1/connectors")
				.exchange()
				.expectBody()
				.jsonPath("$.sources[0].error")
				.value((error) -> assertThat(String.valueOf(error)).contains("403")));
		assertThat(this.fleet.get("main-shop").slots().connector("debezium").name())
			.as("a source that cannot be listed keeps what it listed")
			.isEqualTo("shop-cdc");
		kubernetes.forbid("");
	}

	private RestTestClient client() {
		return RestTestClient.bindToServer()
			.baseUrl("http://localhost:" + this.port)
			.defaultHeader("Authorization", "Bearer " + VIEWER)
			.build();
	}

}
