package io.slotkeeper.slot;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.Test;

import org.springframework.web.client.RestClient;

import io.slotkeeper.api.ApiException;
import io.slotkeeper.config.TargetProperties;
import io.slotkeeper.connect.ConnectorClient;
import io.slotkeeper.target.TargetConnector;
import io.slotkeeper.target.TargetDataSources;
import io.slotkeeper.target.Targets;
import io.slotkeeper.testbed.PostgresServer;
import io.slotkeeper.testbed.PostgresTestBed;
import io.slotkeeper.testbed.SlotRecipes;

import static io.slotkeeper.testbed.TestTargets.target;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Two slot-keeper instances (each with its own pool, as two pods have) asked to recreate the same lost slot at the
 * same moment: the change lock lets one act; the other reads a healthy slot and is refused.
 */
class SlotChangeLockTests {

	@Test
	void concurrentRecreatesOnTwoInstancesDropTheSlotOnce() throws Exception {
		try (PostgresServer server = PostgresTestBed.dedicated(Map.of("max_slot_wal_keep_size", "1MB"))) {
			String database = server.createDatabase();
			server.execute(database, "CREATE TABLE orders (id bigserial PRIMARY KEY, item text)",
					"SELECT pg_create_logical_replication_slot('contested', 'pgoutput')");
			SlotRecipes.lose(server, database, "contested");
			TargetProperties target = target("orders", server, database);
			List<TargetDataSources> pools = List.of(new TargetDataSources(new TargetConnector()),
					new TargetDataSources(new TargetConnector()));
			ExecutorService threads = Executors.newFixedThreadPool(2);
			try {
				CountDownLatch start = new CountDownLatch(1);
				List<Future<Object>> outcomes = new ArrayList<>();
				for (TargetDataSources pool : pools) {
					SlotService instance = new SlotService(new Targets(List.of(target)), pool,
							new ConnectorClient(RestClient.builder(), java.time.Duration.ofMillis(10)),
							new SimpleMeterRegistry());
					outcomes.add(threads.submit(() -> {
						start.await();
						try {
							return instance.recreate("orders", null, "contested", false, false).result();
						}
						catch (ApiException refusal) {
							return refusal;
						}
					}));
				}
				start.countDown();
				List<Object> results = new ArrayList<>();
				for (Future<Object> outcome : outcomes) {
					results.add(outcome.get());
				}
				assertThat(results).filteredOn(RecreateResult.class::isInstance).hasSize(1);
				assertThat(results).filteredOn(ApiException.class::isInstance).singleElement()
					.satisfies((refusal) -> assertThat(((ApiException) refusal).type().toString())
						.isEqualTo("urn:slotkeeper:problem:slot-not-invalidated"));
				assertThat(server.queryForString("postgres",
						"SELECT wal_status FROM pg_replication_slots WHERE slot_name = 'contested'")).isEqualTo("reserved");
			}
			finally {
				threads.shutdownNow();
				pools.forEach(TargetDataSources::close);
			}
		}
	}

}
