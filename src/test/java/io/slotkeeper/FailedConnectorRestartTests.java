package io.slotkeeper;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import io.micrometer.core.instrument.MeterRegistry;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import io.slotkeeper.RecoveryPipeline.Pipeline;
import io.slotkeeper.testbed.KafkaBroker;
import io.slotkeeper.testbed.RealKafkaConnect;
import io.slotkeeper.testbed.StrimziManagedConnect;

import static io.slotkeeper.RecoveryPipeline.ids;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * {@code on-failed: restart} on a real Kafka Connect worker running Debezium: a task that
 * failed (its walsender ended, no retries) is restarted by slot-keeper and misses no row;
 * a connector its user stopped while FAILED stays stopped; past
 * {@code max-restarts-per-hour} it is left FAILED and the refusal audited and counted.
 * Managed by Strimzi, with its state read from the worker
 * ({@code slotkeeper.strimzi.status-from: worker}), it is restarted as soon, not at the
 * operator's next reconcile two minutes later.
 */
@Tag("pipeline")
class FailedConnectorRestartTests {

	@Test
	void aFailedTaskIsRestartedUntilItsHourlyBudgetIsSpentAndAUsersStopStands() throws Exception {
		try (Pipeline pipeline = new Pipeline(DebeziumRecreateTests::realWorker, Map.of(),
				(built) -> restarting(built, "--slotkeeper.targets[0].slots[0].max-restarts-per-hour=1"))) {
			RealKafkaConnect worker = (RealKafkaConnect) pipeline.engine;
			pipeline.write(1, 100);
			await().atMost(Duration.ofSeconds(30)).until(() -> worker.deliveries().keySet().containsAll(ids(1, 100)));

			worker.crash();
			long failed = System.nanoTime();
			pipeline.write(101, 200);
			await("restarted by slot-keeper").atMost(Duration.ofSeconds(30))
				.until(() -> "RUNNING".equals(worker.state()));
			long running = System.nanoTime();
			await().atMost(Duration.ofSeconds(60)).until(() -> worker.deliveries().keySet().containsAll(ids(1, 200)));
			assertThat(pipeline.audit("connector.restart")).singleElement().satisfies((entry) -> {
				assertThat(entry.get("outcome")).isEqualTo("done");
				assertThat(String.valueOf(entry.get("detail"))).startsWith("restarted its failed tasks: ")
					.contains("task 0 FAILED");
			});

			worker.crash();
			assertThat(worker.put("/stop")).isEqualTo(204);
			await("the user's stop stands").during(Duration.ofSeconds(8))
				.atMost(Duration.ofSeconds(10))
				.until(() -> "STOPPED".equals(worker.state()));
			assertThat(pipeline.audit("connector.restart")).hasSize(1);
			assertThat(worker.put("/resume")).isEqualTo(202);
			// Streaming again (a task RUNNING may not have opened its replication stream
			// yet): every row arrives.
			pipeline.write(201, 300);
			await().atMost(Duration.ofSeconds(60)).until(() -> worker.deliveries().keySet().containsAll(ids(1, 300)));

			worker.crash();
			await("the budget spent").atMost(Duration.ofSeconds(20))
				.until(() -> pipeline.audit("connector.restart")
					.stream()
					.anyMatch((entry) -> "refused".equals(entry.get("outcome"))));
			assertThat(worker.state()).isEqualTo("FAILED");
			assertThat(String.valueOf(pipeline.audit("connector.restart").get(0).get("detail")))
				.contains("max-restarts-per-hour 1");
			MeterRegistry registry = pipeline.app.getBean(MeterRegistry.class);
			assertThat(registry.get("slotkeeper.connector.restarts")
				.tags("slot", "debezium", "outcome", "done")
				.counter()
				.count()).isEqualTo(1.0);
			assertThat(registry.get("slotkeeper.connector.restarts")
				.tags("slot", "debezium", "outcome", "refused")
				.counter()
				.count()).isEqualTo(1.0);
			System.out.printf(
					"debezium, on-failed: restart: the failed task RUNNING again %d ms after it failed, 0 of"
							+ " 300 rows missing; the user's stop stood; past the budget of 1 an hour left FAILED%n",
					(running - failed) / 1_000_000);
		}
	}

	@Test
	void aFailedTaskOfAStrimziManagedConnectorIsRestartedWithinSecondsWhenItsStateIsReadFromTheWorker() {
		try (Pipeline pipeline = new Pipeline(
				(server, database, settings) -> new StrimziManagedConnect(KafkaBroker.shared(), server, database,
						"debezium", settings),
				Map.of(), (built) -> restarting(built, "--slotkeeper.strimzi.status-from=worker"))) {
			StrimziManagedConnect strimzi = (StrimziManagedConnect) pipeline.engine;
			pipeline.write(1, 100);
			await().atMost(Duration.ofSeconds(60)).until(() -> strimzi.deliveries().keySet().containsAll(ids(1, 100)));
			int reconciles = strimzi.operator().reconciles();

			strimzi.crash();
			long failed = System.nanoTime();
			pipeline.write(101, 200);
			// The operator's full reconciliation is every 2 minutes: within 30 s only
			// slot-keeper can have seen it.
			await("restarted by slot-keeper").atMost(Duration.ofSeconds(30))
				.until(() -> "RUNNING".equals(strimzi.state()));
			long running = System.nanoTime();
			await().atMost(Duration.ofSeconds(60)).until(() -> strimzi.deliveries().keySet().containsAll(ids(1, 200)));
			assertThat(pipeline.audit("connector.restart")).singleElement()
				.satisfies((entry) -> assertThat(entry.get("outcome")).isEqualTo("done"));
			assertThat(strimzi.api().calls()).as("never the status subresource")
				.noneMatch((call) -> call.endsWith("/status"));
			System.out.printf("debezium through a Strimzi KafkaConnector, status-from: worker, on-failed: restart: the"
					+ " failed task RUNNING again %d ms after it failed (the operator reconciled %d times meanwhile, each"
					+ " on a write to the resource, and auto-restarted %d times), 0 of 200 rows missing%n",
					(running - failed) / 1_000_000, strimzi.operator().reconciles() - reconciles,
					strimzi.operator().autoRestarts());
		}
	}

	private static List<String> restarting(Pipeline pipeline, String setting) {
		List<String> args = new ArrayList<>(pipeline.healing("align", "none", "recreate"));
		args.addAll(List.of("--slotkeeper.targets[0].slots[0].on-failed=restart", setting));
		return args;
	}

}
