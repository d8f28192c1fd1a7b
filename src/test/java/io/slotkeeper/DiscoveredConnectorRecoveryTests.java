package io.slotkeeper;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import io.slotkeeper.RecoveryPipeline.Pipeline;
import io.slotkeeper.testbed.CdcConnector;
import io.slotkeeper.testbed.KafkaBroker;
import io.slotkeeper.testbed.PostgresServer;
import io.slotkeeper.testbed.RealKafkaConnect;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Issue 24's connectors discovered, on a real Kafka Connect worker running the Debezium
 * 3.6 PostgreSQL connector: slot-keeper is told only the server ({@code servers[]},
 * {@code databases: auto}) and the worker's URL
 * ({@code connector-discovery.kafka-connect}); the connector's database is found by its
 * slot, the connector by its {@code database.hostname}, {@code port}, {@code dbname} and
 * {@code slot.name}, and its signal table and tables come from its configuration. The
 * worker is killed, the slot lost and healed while it is down, slot-keeper is restarted
 * while it is still down (nothing can be listed), and when the worker comes back the
 * handover completes: 0 rows missing, as with a connector configured by hand.
 */
@Tag("pipeline")
class DiscoveredConnectorRecoveryTests {

	private static CdcConnector realWorker(PostgresServer server, String database, Map<String, String> settings) {
		return new RealKafkaConnect(KafkaBroker.shared(), server, database, "debezium", settings);
	}

	private static List<String> serverAndWorkerOnly(Pipeline pipeline) {
		return List.of("--slotkeeper.servers[0].name=shop",
				"--slotkeeper.servers[0].url=" + pipeline.server.jdbcUrl("postgres"),
				"--slotkeeper.servers[0].username=" + pipeline.server.user(),
				"--slotkeeper.servers[0].heartbeat.interval=200ms", "--slotkeeper.servers[0].slots-poll-interval=200ms",
				"--slotkeeper.connector-discovery.kafka-connect[0].url=" + pipeline.engine.url(),
				"--slotkeeper.connector-discovery.interval=1s", "--slotkeeper.connector-discovery.on-lost=recreate",
				"--slotkeeper.connector-discovery.running-timeout=30s");
	}

	@Test
	void aDiscoveredConnectorsSlotHealedWhileKafkaConnectIsDownIsHandedOverWhenItComesBackAndNoRowIsMissing() {
		try (Pipeline pipeline = new Pipeline(DiscoveredConnectorRecoveryTests::realWorker, Map.of(),
				DiscoveredConnectorRecoveryTests::serverAndWorkerOnly)) {
			String target = "shop-" + pipeline.database.replace('_', '-');
			await("the database and its connector found").atMost(Duration.ofSeconds(60))
				.untilAsserted(() -> pipeline.client.get()
					.uri("/api/v1/targets/" + target + "/slots")
					.exchange()
					.expectBody()
					.jsonPath("$[?(@.slotName == 'debezium')].connector.connector")
					.isEqualTo(RealKafkaConnect.NAME)
					.jsonPath("$[?(@.slotName == 'debezium')].connector.state")
					.isEqualTo("RUNNING")
					.jsonPath("$[?(@.slotName == 'debezium')].connectorDiscovered")
					.isEqualTo(true));
			pipeline.client.get()
				.uri("/api/v1/connectors")
				.exchange()
				.expectBody()
				.jsonPath("$.connectors[0].target")
				.isEqualTo(target)
				.jsonPath("$.connectors[0].source")
				.isEqualTo("kafka-connect " + pipeline.engine.url())
				.jsonPath("$.connectors[0].state")
				.isEqualTo("RUNNING")
				.jsonPath("$.connectors[0].settings['signal.data.collection']")
				.isEqualTo("public.debezium_signal")
				.jsonPath("$.connectors[0].settings['database.password']")
				.doesNotExist();

			long lost = pipeline.loseAfter(pipeline.engine::workerDown);
			pipeline.awaitHeal();
			assertThat(pipeline.audit("slot.heal").get(0).toString()).contains("handover under way");
			assertThat(pipeline.audit("slot.handover").get(0).toString()).contains("pending")
				.contains("Kafka Connect could not be reached")
				.contains("deferred");
			pipeline.connectStaysDownAfterTheRecreate();
			pipeline.restartApplication();
			pipeline.engine.workerUp();
			long up = System.nanoTime();
			String handedOver = pipeline.awaitKeptHandover();
			long completed = System.nanoTime();
			assertThat(handedOver).contains("align, RUNNING")
				.contains("signal ")
				.contains("public.orders")
				.contains("alignedTo");
			long lastMissing = pipeline.writeTheRestAndAwaitEveryRow();
			Set<Long> written = pipeline.written();
			System.out.printf("debezium found by discovery (server and worker URL only), Kafka Connect down through the"
					+ " heal and a restart of slot-keeper: 0 of %d rows missing; handover completed %d ms after"
					+ " Connect came back; the last row written while the slot was lost arrived %d ms after Connect"
					+ " came back (%d ms after the loss)%n", written.size(), (completed - up) / 1_000_000,
					(lastMissing - up) / 1_000_000, (lastMissing - lost) / 1_000_000);
			assertThat(pipeline.engine.state()).isEqualTo("RUNNING");
			assertThat(pipeline.missing()).isEmpty();
		}
	}

}
