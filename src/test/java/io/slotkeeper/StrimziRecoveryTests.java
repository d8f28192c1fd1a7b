package io.slotkeeper;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import io.slotkeeper.RecoveryPipeline.Pipeline;
import io.slotkeeper.gap.SlotCopies;
import io.slotkeeper.testbed.CdcConnector;
import io.slotkeeper.testbed.KafkaBroker;
import io.slotkeeper.testbed.PostgresServer;
import io.slotkeeper.testbed.RealKafkaConnect;
import io.slotkeeper.testbed.SlotRecipes;
import io.slotkeeper.testbed.StrimziManagedConnect;

import static io.slotkeeper.RecoveryPipeline.ids;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Issue 23's scenario (C): the connector of a real Kafka Connect worker managed by
 * Strimzi, configured in slot-keeper as its {@code KafkaConnector} resource
 * ({@code connector.strimzi}) on a Kubernetes API stand-in, which an emulation of the
 * operator reconciles to the real worker ({@code spec.state} enforced, offsets changed
 * only when STOPPED, {@code autoRestart} on). The worker is killed before the loss and
 * started again 15 s after slot-keeper recreated the slot: aligned through the resource
 * and re-snapshotted nothing is missing; restarted only, the rows written while the slot
 * was lost are.
 */
@Tag("pipeline")
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
			assertThat(pipeline.audit("slot.heal").get(0).toString()).contains("handover under way");
			assertThat(pipeline.audit("slot.handover").get(0).toString()).contains("pending")
				.contains("the Strimzi operator cannot reach Kafka Connect")
				.contains("deferred");
			pipeline.connectStaysDownAfterTheRecreate();
			int callsBefore = strimzi.api().calls().size();
			pipeline.engine.workerUp();
			long up = System.nanoTime();
			String handedOver = pipeline.awaitKeptHandover();
			long completed = System.nanoTime();
			assertThat(handedOver).contains("align, RUNNING").contains("signal ").contains("alignedTo");
			long lastMissing = pipeline.writeTheRestAndAwaitEveryRow();
			Set<Long> written = pipeline.written();
			List<String> calls = strimzi.api().calls();
			System.out
				.printf("debezium through a Strimzi KafkaConnector, the worker down through the heal and back 15 s"
						+ " after it: 0 of %d rows missing; handover completed %d ms after Connect came back; the last row"
						+ " written while the slot was lost arrived %d ms after Connect came back (%d ms after the loss);"
						+ " Kubernetes API calls %d in all, %d (%d writes) after Connect came back; operator reconciles %d,"
						+ " auto-restarts %d%n", written.size(), (completed - up) / 1_000_000,
						(lastMissing - up) / 1_000_000, (lastMissing - lost) / 1_000_000, calls.size(),
						calls.size() - callsBefore,
						calls.subList(callsBefore, calls.size())
							.stream()
							.filter((call) -> !call.startsWith("GET"))
							.count(),
						strimzi.operator().reconciles(), strimzi.operator().autoRestarts());
			assertThat(pipeline.engine.state()).isEqualTo("RUNNING");
			Map<String, Object> resource = strimzi.api()
				.connector(StrimziManagedConnect.NAMESPACE, RealKafkaConnect.NAME);
			assertThat(resource.get("spec").toString()).as("put back as it was: the user set no spec.state")
				.doesNotContain("state=");
			assertThat(((Map<?, ?>) ((Map<?, ?>) resource.get("metadata")).get("annotations")).keySet().toString())
				.as("nothing of slot-keeper's left on the resource")
				.isEqualTo("[]");
			// Listed again after the alter: the ConfigMap holds what Connect holds,
			// written by the operator's list.
			assertThat(strimzi.api().configMap(StrimziManagedConnect.NAMESPACE, "orders-debezium-slotkeeper-offsets"))
				.extractingByKey("data")
				.asString()
				.contains("offsets.json")
				.contains("\"lsn\"");
			pipeline.client.get()
				.uri("/api/v1/targets/orders/slots/debezium/connector")
				.exchange()
				.expectBody()
				.jsonPath("$.lastHandover.offsetsAfter[0].offset.lsn")
				.exists();
			assertThat(calls).as("slot-keeper changes the resource, never Connect's state through REST")
				.allMatch((call) -> call.startsWith("GET ") || call.startsWith("PATCH ") || call.startsWith("POST "));
		}
	}

	@Test
	void throughItsKafkaConnectorResourceTheGapsDeletesAreDeliveredAndTheConsumersLastStateIsTheTables() {
		try (Pipeline pipeline = new Pipeline(StrimziRecoveryTests::strimziManaged, Map.of(), (built) -> {
			List<String> args = new ArrayList<>(built.healing("align", "debezium-signal", "recreate"));
			args.add("--slotkeeper.gap-journal.after=1s");
			args.add("--slotkeeper.targets[0].slots[0].resnapshot.deletes=signal");
			return args;
		})) {
			pipeline.journalAfterACrash();
			pipeline.server.execute(pipeline.database, "DELETE FROM orders WHERE id BETWEEN 101 AND 105",
					"UPDATE orders SET item = 'changed' WHERE id BETWEEN 151 AND 155");
			pipeline.write(201, 400);
			SlotRecipes.loseBeforeItsCopy(pipeline.server, pipeline.database, "debezium",
					SlotCopies.copyOf("debezium"));
			pipeline.awaitHeal();
			pipeline.writeTheRestAndAwaitEveryRow();
			StrimziManagedConnect strimzi = (StrimziManagedConnect) pipeline.engine;
			await().atMost(Duration.ofSeconds(60)).until(() -> strimzi.deleted().containsAll(ids(101, 105)));
			Map<?, ?> delivery = pipeline.awaitGapDelivery();
			assertThat(String.valueOf(delivery.get("lsns"))).contains("public.orders=5 deletes delivered");
			assertThat(pipeline.audit("slot.handover").get(0).toString())
				.contains("5 deletes signalled (1 slotkeeper-gap-deletes signal)")
				.doesNotContain("could not be told");
			Set<Long> table = pipeline.written();
			List<Long> stale = strimzi.deliveries()
				.keySet()
				.stream()
				.filter((id) -> !Boolean.valueOf(table.contains(id)).equals(strimzi.alive(id)))
				.toList();
			assertThat(stale).as("keys whose last state downstream is not the table's").isEmpty();
			assertThat(pipeline.missing()).isEmpty();
			assertThat(strimzi.deliveries().get(153L)).as("a row updated in the gap, at its new version")
				.isGreaterThanOrEqualTo(2);
			System.out.printf(
					"debezium through a Strimzi KafkaConnector, 5 rows deleted and 5 updated in a journaled"
							+ " gap: %d keys downstream, 0 stale, 0 of %d missing; the extension acknowledged: %s%n",
					strimzi.deliveries().size(), table.size(), delivery.get("lsns"));
		}
	}

	@Test
	void throughItsKafkaConnectorResourceAConnectorItsUserStoppedStaysStoppedAndMissesNoRowOnceStartedAgain() {
		try (Pipeline pipeline = new Pipeline(StrimziRecoveryTests::strimziManaged, "align", "debezium-signal")) {
			StrimziManagedConnect strimzi = (StrimziManagedConnect) pipeline.engine;
			pipeline.loseAfter(() -> {
				userSets(strimzi, "stopped");
				await().atMost(Duration.ofSeconds(60))
					.until(() -> "STOPPED".equals(pipeline.engine.state()) && "0".equals(pipeline.server.queryForString(
							pipeline.database,
							"SELECT count(*) FROM" + " pg_replication_slots WHERE slot_name = 'debezium' AND active")));
			});
			pipeline.awaitHeal();
			assertThat(pipeline.audit("slot.handover").get(0).toString()).contains("align, left stopped as it was");
			await("the user's spec.state stands").during(Duration.ofSeconds(5))
				.atMost(Duration.ofSeconds(7))
				.until(() -> "STOPPED".equals(pipeline.engine.state()));
			Map<String, Object> resource = strimzi.api()
				.connector(StrimziManagedConnect.NAMESPACE, RealKafkaConnect.NAME);
			assertThat(resource.get("spec").toString()).contains("state=stopped");
			assertThat(((Map<?, ?>) ((Map<?, ?>) resource.get("metadata")).get("annotations")).keySet().toString())
				.doesNotContain("slotkeeper.io/state-before-stop");

			userSets(strimzi, "running");
			pipeline.writeTheRestAndAwaitEveryRow();
			System.out.printf(
					"debezium through a Strimzi KafkaConnector its user stopped: left stopped through the"
							+ " heal; once its user set spec.state running, 0 of %d rows missing%n",
					pipeline.written().size());
		}
	}

	// The user's GitOps changes spec.state: the resource as it is, with that one field
	// set.
	@SuppressWarnings("unchecked")
	private static void userSets(StrimziManagedConnect strimzi, String state) {
		Map<String, Object> spec = new java.util.HashMap<>((Map<String, Object>) strimzi.api()
			.connector(StrimziManagedConnect.NAMESPACE, RealKafkaConnect.NAME)
			.get("spec"));
		spec.put("state", state);
		strimzi.api().createConnector(StrimziManagedConnect.NAMESPACE, RealKafkaConnect.NAME, spec);
	}

	@Test
	void throughItsKafkaConnectorResourceARestartAloneWhenTheWorkerComesBackLeavesTheRowsMissing() {
		try (Pipeline pipeline = new Pipeline(StrimziRecoveryTests::strimziManaged, "leave", "none")) {
			pipeline.loseAfter(pipeline.engine::workerDown);
			pipeline.awaitHeal();
			pipeline.connectStaysDownAfterTheRecreate();
			pipeline.engine.workerUp();
			String handedOver = pipeline.awaitKeptHandover();
			pipeline.write(401, 500);
			await().atMost(Duration.ofSeconds(30))
				.until(() -> "FAILED".equals(pipeline.engine.state())
						|| pipeline.engine.deliveries().containsKey(500L));
			System.out.printf(
					"debezium through a Strimzi KafkaConnector, the worker down through the heal, restart only"
							+ " when it came back: the task is %s; %d of %d rows missing%n",
					pipeline.engine.state(), pipeline.missing().size(), pipeline.written().size());
			assertThat(pipeline.missing()).containsAll(ids(201, 400));
			assertThat(handedOver).contains("orders-debezium: restart");
		}
	}

}
