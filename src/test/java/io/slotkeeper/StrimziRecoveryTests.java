package io.slotkeeper;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.junit.jupiter.api.Test;

import io.slotkeeper.RecoveryPipeline.Pipeline;
import io.slotkeeper.testbed.CdcConnector;
import io.slotkeeper.testbed.KafkaBroker;
import io.slotkeeper.testbed.PostgresServer;
import io.slotkeeper.testbed.RealKafkaConnect;
import io.slotkeeper.testbed.StrimziManagedConnect;

import static io.slotkeeper.RecoveryPipeline.ids;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Issue 23's scenario (C): the connector of a real Kafka Connect worker managed by Strimzi, configured in slot-keeper
 * as its {@code KafkaConnector} resource ({@code connector.strimzi}) on a Kubernetes API stand-in, which an emulation
 * of the operator reconciles to the real worker ({@code spec.state} enforced, offsets changed only when STOPPED,
 * {@code autoRestart} on). The worker is killed before the loss and started again 15 s after slot-keeper recreated the
 * slot: aligned through the resource and re-snapshotted nothing is missing; restarted only, the rows written while the
 * slot was lost are.
 */
class StrimziRecoveryTests {

	private static CdcConnector strimziManaged(PostgresServer server, String database, Map<String, String> settings) {
		return new StrimziManagedConnect(KafkaBroker.shared(), server, database, "debezium", settings);
	}

	@Test
	void throughItsKafkaConnectorResourceAHealWhileTheWorkerIsDownIsCompletedWhenItComesBackAndNoRowIsMissing() {
		try (Pipeline pipeline = new Pipeline(StrimziRecoveryTests::strimziManaged, "align", "debezium-signal")) {
			StrimziManagedConnect strimzi = (StrimziManagedConnect) pipeline.engine;
			long lost = pipeline.loseAfter(pipeline.engine::workerDown);
			pipeline.awaitHeal();
			assertThat(pipeline.audit("slot.heal").get(0).toString()).contains("pending")
				.contains("the Strimzi operator cannot reach Kafka Connect").contains("deferred");
			pipeline.connectStaysDownAfterTheRecreate();
			int callsBefore = strimzi.api().calls().size();
			pipeline.engine.workerUp();
			long up = System.nanoTime();
			await().atMost(Duration.ofSeconds(90)).until(() -> !pipeline.audit("slot.handover").isEmpty());
			long completed = System.nanoTime();
			assertThat(pipeline.audit("slot.handover").get(0).toString()).contains("align, RUNNING")
				.contains("signal ").contains("alignedTo");
			long lastMissing = pipeline.writeTheRestAndAwaitEveryRow();
			Set<Long> written = pipeline.written();
			List<String> calls = strimzi.api().calls();
			System.out.printf("debezium through a Strimzi KafkaConnector, the worker down through the heal and back 15 s"
					+ " after it: 0 of %d rows missing; handover completed %d ms after Connect came back; the last row"
					+ " written while the slot was lost arrived %d ms after Connect came back (%d ms after the loss);"
					+ " Kubernetes API calls %d in all, %d (%d writes) after Connect came back; operator reconciles %d,"
					+ " auto-restarts %d%n", written.size(), (completed - up) / 1_000_000, (lastMissing - up) / 1_000_000,
					(lastMissing - lost) / 1_000_000, calls.size(), calls.size() - callsBefore, calls.subList(callsBefore,
							calls.size()).stream().filter((call) -> !call.startsWith("GET")).count(),
					strimzi.operator().reconciles(), strimzi.operator().autoRestarts());
			assertThat(pipeline.engine.state()).isEqualTo("RUNNING");
			Map<String, Object> resource = strimzi.api().connector(StrimziManagedConnect.NAMESPACE,
					RealKafkaConnect.NAME);
			assertThat(resource.get("spec").toString()).contains("state=running");
			assertThat(((Map<?, ?>) ((Map<?, ?>) resource.get("metadata")).get("annotations")).keySet().toString())
				.as("only the time slot-keeper last asked the operator to look")
				.isEqualTo("[slotkeeper.io/refreshed-at]");
			assertThat(strimzi.api().configMap(StrimziManagedConnect.NAMESPACE, "orders-debezium-slotkeeper-offsets"))
				.extractingByKey("metadata").asString().contains("app.kubernetes.io/managed-by=slot-keeper");
			assertThat(calls).as("slot-keeper changes the resource, never Connect's state through REST")
				.allMatch((call) -> call.startsWith("GET ") || call.startsWith("PATCH ") || call.startsWith("POST "));
		}
	}

	@Test
	void throughItsKafkaConnectorResourceARestartAloneWhenTheWorkerComesBackLeavesTheRowsMissing() {
		try (Pipeline pipeline = new Pipeline(StrimziRecoveryTests::strimziManaged, "leave", "none")) {
			pipeline.loseAfter(pipeline.engine::workerDown);
			pipeline.awaitHeal();
			pipeline.connectStaysDownAfterTheRecreate();
			pipeline.engine.workerUp();
			await().atMost(Duration.ofSeconds(90)).until(() -> !pipeline.audit("slot.handover").isEmpty());
			pipeline.write(401, 500);
			await().atMost(Duration.ofSeconds(30)).until(() -> "FAILED".equals(pipeline.engine.state())
					|| pipeline.engine.deliveries().containsKey(500L));
			System.out.printf("debezium through a Strimzi KafkaConnector, the worker down through the heal, restart only"
					+ " when it came back: the task is %s; %d of %d rows missing%n", pipeline.engine.state(),
					pipeline.missing().size(), pipeline.written().size());
			assertThat(pipeline.missing()).containsAll(ids(201, 400));
			assertThat(pipeline.audit("slot.handover").get(0).toString()).contains("orders-debezium: restart");
		}
	}

}
