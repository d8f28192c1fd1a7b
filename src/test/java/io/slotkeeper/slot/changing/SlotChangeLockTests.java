package io.slotkeeper.slot.changing;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.Function;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.Test;

import org.springframework.web.client.RestClient;

import io.slotkeeper.config.TargetProperties;
import io.slotkeeper.connect.ConnectorClient;
import io.slotkeeper.fleet.Fleet;
import io.slotkeeper.problem.ProblemException;
import io.slotkeeper.problem.ProblemKind;
import io.slotkeeper.testbed.PostgresServer;
import io.slotkeeper.testbed.PostgresTestBed;
import io.slotkeeper.testbed.SlotRecipes;

import static io.slotkeeper.testbed.TestTargets.fleet;
import static io.slotkeeper.testbed.TestTargets.target;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Two slot-keeper instances (each with its own pool, as two pods have) asked to recreate
 * the same lost slot at the same moment: the change lock lets one act; the other reads a
 * healthy slot and is refused.
 */
class SlotChangeLockTests {

	private static final SlotService SERVICE = new SlotService(
			new ConnectorClient(RestClient.builder(), java.time.Duration.ofMillis(10), java.time.Clock.systemUTC()),
			new SimpleMeterRegistry(), java.time.Clock.systemUTC());

	@Test
	void aDoubledForcedRecreateWithTheSameIfMatchRecreatesOnceAndTheOtherIsTold412() throws Exception {
		try (PostgresServer server = PostgresTestBed.dedicated(Map.of())) {
			String database = server.createDatabase();
			server.execute(database, "SELECT pg_create_logical_replication_slot('doubled', 'pgoutput')");
			TargetProperties target = target("orders", server, database);
			List<Fleet> instances = List.of(fleet(target), fleet(target));
			String etag = instances.get(0)
				.get("orders")
				.primary()
				.withConnection((connection) -> io.slotkeeper.replication.SlotRepository.require(connection,
						instances.get(0).get("orders").primary(), "doubled"))
				.etag();
			try {
				List<Object> results = race(instances, (instance) -> SERVICE.recreates()
					.recreate(instance.get("orders"), null, "doubled", true, etag));
				assertThat(results).filteredOn(RecreateResult.class::isInstance).hasSize(1);
				assertThat(results).filteredOn(ProblemException.class::isInstance)
					.singleElement()
					.satisfies((refusal) -> assertThat(((ProblemException) refusal).kind())
						.isEqualTo(ProblemKind.SLOT_CHANGED));
			}
			finally {
				instances.forEach(Fleet::close);
			}
		}
	}

	@Test
	void concurrentRecreatesOnTwoInstancesDropTheSlotOnce() throws Exception {
		try (PostgresServer server = PostgresTestBed.dedicated(Map.of("max_slot_wal_keep_size", "1MB"))) {
			String database = server.createDatabase();
			server.execute(database, "CREATE TABLE orders (id bigserial PRIMARY KEY, item text)",
					"SELECT pg_create_logical_replication_slot('contested', 'pgoutput')");
			SlotRecipes.lose(server, database, "contested");
			TargetProperties target = target("orders", server, database);
			List<Fleet> instances = List.of(fleet(target), fleet(target));
			try {
				List<Object> results = race(instances, (instance) -> SERVICE.recreates()
					.recreate(instance.get("orders"), null, "contested", false, null));
				assertThat(results).filteredOn(RecreateResult.class::isInstance).hasSize(1);
				assertThat(results).filteredOn(ProblemException.class::isInstance)
					.singleElement()
					.satisfies((refusal) -> assertThat(((ProblemException) refusal).kind())
						.isEqualTo(ProblemKind.SLOT_NOT_INVALIDATED));
				assertThat(server.queryForString("postgres",
						"SELECT wal_status FROM pg_replication_slots WHERE slot_name = 'contested'"))
					.isEqualTo("reserved");
			}
			finally {
				instances.forEach(Fleet::close);
			}
		}
	}

	// Each instance (its own pool, as two pods have) starts the same change at the same
	// moment.
	private static List<Object> race(List<Fleet> instances, Function<Fleet, Object> change) throws Exception {
		ExecutorService threads = Executors.newFixedThreadPool(instances.size());
		try {
			CountDownLatch start = new CountDownLatch(1);
			List<Future<Object>> outcomes = new ArrayList<>();
			for (Fleet instance : instances) {
				outcomes.add(threads.submit(() -> {
					start.await();
					try {
						return change.apply(instance);
					}
					catch (ProblemException refusal) {
						return refusal;
					}
				}));
			}
			start.countDown();
			List<Object> results = new ArrayList<>();
			for (Future<Object> outcome : outcomes) {
				results.add(outcome.get());
			}
			return results;
		}
		finally {
			threads.shutdownNow();
		}
	}

}
