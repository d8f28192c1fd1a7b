package io.slotkeeper.connect;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;

import io.slotkeeper.config.ConnectorProperties;
import io.slotkeeper.config.StrimziStatusFrom;
import io.slotkeeper.testbed.ConnectStub;
import io.slotkeeper.testbed.RefusedPort;
import io.slotkeeper.testbed.StrimziOperator;
import io.slotkeeper.testbed.StrimziResources;
import io.slotkeeper.testbed.TestTargets;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * {@code slotkeeper.strimzi.status-from: worker}: a Strimzi-managed connector's state is
 * read from its worker, at the address in its {@code KafkaConnect}'s status, as soon as
 * it changes rather than at the operator's next reconcile; nothing is changed through
 * REST; where the worker cannot be read the resource's status serves.
 */
@ExtendWith(OutputCaptureExtension.class)
class WorkerStatusesTests {

	private static final String FAILED = "{\"name\":\"orders-cdc\",\"connector\":{\"state\":\"RUNNING\"},\"tasks\":"
			+ "[{\"id\":0,\"state\":\"FAILED\",\"trace\":\"io.debezium.DebeziumException: no longer available\"}]}";

	private final ConnectStub connect = new ConnectStub();

	private final StrimziResources api = new StrimziResources(StrimziConnectorApiTests.TOKEN, "v1");

	private final ConnectorProperties connector = TestTargets.bind(ConnectorProperties.class, "strimzi.namespace",
			"cdc", "strimzi.name", "orders-cdc");

	private StrimziOperator operator;

	@TempDir
	Path directory;

	@AfterEach
	void stop() {
		this.operator.close();
		this.api.close();
		this.connect.close();
	}

	private void connector(Map<String, String> labels) {
		// The operator looks again only every 10 minutes, and at each write to the
		// resource.
		this.operator = new StrimziOperator(this.api, this.connect.url(), Duration.ofMinutes(10));
		this.api.createConnector("cdc", "orders-cdc", labels, Map.of("class",
				"io.debezium.connector.postgresql.PostgresConnector", "config", Map.of("topic.prefix", "shop")));
		await().atMost(Duration.ofSeconds(10))
			.until(() -> this.api.connector("cdc", "orders-cdc").get("status").toString().contains("RUNNING"));
	}

	@Test
	void aTaskThatFailedIsSeenAtOnceFromTheWorkerWhileTheResourceStillSaysRunning() throws IOException {
		this.api.createConnect("cdc", "cdc-connect", this.connect.url());
		connector(Map.of("strimzi.io/cluster", "cdc-connect"));
		ConnectorClient worker = StrimziConnectorApiTests.client(this.directory, this.api.url(),
				StrimziStatusFrom.WORKER);
		ConnectorClient resource = StrimziConnectorApiTests.client(this.directory, this.api.url(),
				StrimziStatusFrom.RESOURCE);

		this.connect.status(FAILED);

		assertThat(worker.status(this.connector).failed()).isTrue();
		assertThat(worker.status(this.connector).error()).isNull();
		assertThat(resource.status(this.connector).failed()).as("the operator has not looked again").isFalse();
		assertThat(this.connect.changes()).as("read only").isEmpty();
		assertThat(this.api.calls()).contains("GET /apis/kafka.strimzi.io/v1/namespaces/cdc/kafkaconnects/cdc-connect");
	}

	@Test
	void aWorkerThatCannotBeReadLeavesTheResourcesStatus() throws IOException {
		int closed = RefusedPort.PORT;
		this.api.createConnect("cdc", "unreachable", "http://127.0.0.1:" + closed);
		this.api.createConnect("cdc", "no-address-yet", null);
		this.api.createConnect("cdc", "odd-address", "file:///etc/passwd");
		connector(Map.of("strimzi.io/cluster", "unreachable"));
		ConnectorClient worker = StrimziConnectorApiTests.client(this.directory, this.api.url(),
				StrimziStatusFrom.WORKER);
		this.connect.status(FAILED);

		for (String cluster : new String[] { "unreachable", "no-address-yet", "odd-address", "missing", null }) {
			this.api.relabel("cdc", "orders-cdc", (cluster != null) ? Map.of("strimzi.io/cluster", cluster) : Map.of());
			ConnectorStatus status = worker.status(this.connector);
			assertThat(status.error()).as(cluster).isNull();
			assertThat(status.state()).as(cluster).isEqualTo("RUNNING");
			assertThat(status.failed()).as("%s: the resource's status, as the operator last saw it", cluster).isFalse();
		}
	}

	// Two connectors without the label were one "cdc/null" entry: only the first was ever
	// named in a warning.
	@Test
	void eachConnectorWithoutAClusterLabelIsNamedInItsOwnWarning(CapturedOutput output) throws IOException {
		connector(Map.of("strimzi.io/cluster", "cdc-connect"));
		this.api.relabel("cdc", "orders-cdc", Map.of());
		this.api.createConnector("cdc", "billing-cdc", Map.of(), Map.of("class",
				"io.debezium.connector.postgresql.PostgresConnector", "config", Map.of("topic.prefix", "billing")));
		ConnectorClient worker = StrimziConnectorApiTests.client(this.directory, this.api.url(),
				StrimziStatusFrom.WORKER);

		worker.status(this.connector);
		worker.status(
				TestTargets.bind(ConnectorProperties.class, "strimzi.namespace", "cdc", "strimzi.name", "billing-cdc"));

		assertThat(output.getOut())
			.contains("KafkaConnector cdc/orders-cdc has no strimzi.io/cluster label",
					"KafkaConnector cdc/billing-cdc has no strimzi.io/cluster label")
			.doesNotContain("cdc/null");
	}

}
