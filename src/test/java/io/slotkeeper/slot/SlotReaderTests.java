package io.slotkeeper.slot;

import java.time.Duration;
import java.util.List;

import org.junit.jupiter.api.Test;

import org.springframework.web.client.RestClient;

import io.slotkeeper.connect.ConnectorClient;
import io.slotkeeper.fleet.Fleet;
import io.slotkeeper.replication.SlotFilter;
import io.slotkeeper.replication.SlotView;
import io.slotkeeper.testbed.PostgresServer;
import io.slotkeeper.testbed.PostgresTestBed;
import io.slotkeeper.testbed.SilentServer;
import io.slotkeeper.watching.SlotWatch;

import static io.slotkeeper.testbed.TestTargets.fleet;
import static io.slotkeeper.testbed.TestTargets.target;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

/**
 * A listing never waits for Kafka Connect: it shows each connector's state as the last
 * slot poll checked it.
 */
class SlotReaderTests {

	@Test
	void aHungKafkaConnectNeverHoldsTheListing() throws Exception {
		PostgresServer server = PostgresTestBed.shared();
		String database = server.createDatabase();
		// The shared server holds other tests' slots: this one's is named after its
		// database and listed alone.
		String cdc = "cdc_" + database;
		server.execute(database, "SELECT pg_create_logical_replication_slot('" + cdc + "', 'pgoutput')");
		try (SilentServer connect = new SilentServer();
				Fleet fleet = fleet(target("orders", server, database, "slots[0].name", cdc, "slots[0].connector.url",
						"http://127.0.0.1:" + connect.port(), "slots[0].connector.name", "orders-cdc",
						"slots[0].connector.timeout", "10s"))) {
			ConnectorClient connectors = new ConnectorClient(RestClient.builder(), Duration.ofMillis(10),
					java.time.Clock.systemUTC());
			SlotReader reader = new SlotReader(connectors, new SlotWatch(connectors, java.time.Clock.systemUTC()),
					new io.slotkeeper.handover.HandoverLog(), java.time.Clock.systemUTC());
			long start = System.nanoTime();
			List<SlotView> listed = assertTimeoutPreemptively(Duration.ofSeconds(2),
					() -> reader.list(fleet.get("orders"), null, new SlotFilter(database, null, null)));
			System.out.printf("listing with a hung Kafka Connect took %d ms (connector timeout 10 s)%n",
					(System.nanoTime() - start) / 1_000_000);
			assertThat(listed).singleElement().satisfies((view) -> {
				assertThat(view.slot().slotName()).isEqualTo(cdc);
				assertThat(view.connector().state()).isNull();
				assertThat(view.connector().error()).startsWith("not checked yet");
			});
		}
	}

}
