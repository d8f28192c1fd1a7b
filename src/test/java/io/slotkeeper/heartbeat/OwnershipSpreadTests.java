package io.slotkeeper.heartbeat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

import org.junit.jupiter.api.Test;

import io.slotkeeper.config.TargetProperties;
import io.slotkeeper.fleet.Instance;
import io.slotkeeper.fleet.OwnershipPlan;
import io.slotkeeper.testbed.PostgresServer;
import io.slotkeeper.testbed.PostgresTestBed;

import static io.slotkeeper.testbed.TestTargets.target;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Three instances on the same 30 targets: each target ends up owned by the instance the
 * plan (rendezvous hashing with bounded loads) gives it, ten each, never by two at once;
 * a stopped instance's targets are owned again within about an interval, and the shares
 * are even again once every target was read again.
 */
class OwnershipSpreadTests {

	private static final int TARGETS = 30;

	private final PostgresServer server = PostgresTestBed.shared();

	@Test
	void ownershipFollowsRendezvousHashingAndMovesWhenAnInstanceStops() throws Exception {
		List<String> databases = List.of(this.server.createDatabase(), this.server.createDatabase(),
				this.server.createDatabase());
		List<TargetProperties> targets = new ArrayList<>();
		for (int i = 0; i < TARGETS; i++) {
			targets.add(target("spread-" + i, this.server, databases.get(i % 3), "heartbeat.interval", "200ms"));
		}
		TargetProperties[] all = targets.toArray(TargetProperties[]::new);
		List<HeartbeatEngine> engines = new ArrayList<>(
				List.of(HeartbeatEngine.started(all), HeartbeatEngine.started(all), HeartbeatEngine.started(all)));
		Map<String, Integer> mostOwners = new ConcurrentHashMap<>();
		ScheduledExecutorService watcher = Executors.newSingleThreadScheduledExecutor();
		watcher.scheduleAtFixedRate(
				() -> targets.forEach((target) -> mostOwners.merge(target.name(),
						(int) engines.stream().filter((engine) -> owns(engine, target.name())).count(), Math::max)),
				0, 5, TimeUnit.MILLISECONDS);
		try {
			long start = System.nanoTime();
			await().atMost(Duration.ofSeconds(40)).until(() -> ownedAsPlanned(engines, targets));
			System.out.printf("3 instances x %d targets: owned as planned %d ms after start, owned %s%n", TARGETS,
					(System.nanoTime() - start) / 1_000_000, counts(engines, targets));
			assertThat(counts(engines, targets)).as("bounded loads: shares differ by one at most")
				.containsExactlyInAnyOrder(10, 10, 10);

			HeartbeatEngine stopped = engines.remove(0);
			List<String> moving = targets.stream()
				.map(TargetProperties::name)
				.filter((name) -> owns(stopped, name))
				.toList();
			long stop = System.nanoTime();
			stopped.close();
			await().atMost(Duration.ofSeconds(5))
				.until(() -> moving.stream()
					.allMatch((name) -> engines.stream().filter((engine) -> owns(engine, name)).count() == 1));
			long moved = (System.nanoTime() - stop) / 1_000_000;
			await().atMost(Duration.ofSeconds(30)).until(() -> ownedAsPlanned(engines, targets));
			System.out.printf(
					"stopping one instance: its %d targets owned again in %d ms, shares even again (%s) in"
							+ " %d ms (interval 200 ms)%n",
					moving.size(), moved, counts(engines, targets), (System.nanoTime() - stop) / 1_000_000);
			assertThat(moving).isNotEmpty();
			assertThat(counts(engines, targets)).containsExactlyInAnyOrder(15, 15);
		}
		finally {
			watcher.shutdownNow();
			watcher.awaitTermination(5, TimeUnit.SECONDS);
			engines.forEach(HeartbeatEngine::close);
		}
		assertThat(mostOwners).hasSize(TARGETS);
		assertThat(mostOwners.values()).as("owners of one target at any moment")
			.allSatisfy((count) -> assertThat(count).isLessThanOrEqualTo(1));
	}

	private static boolean owns(HeartbeatEngine engine, String target) {
		return engine.fleet.get(target).ownership().owned();
	}

	private static boolean ownedAsPlanned(List<HeartbeatEngine> engines, List<TargetProperties> targets) {
		Map<String, Integer> plan = OwnershipPlan.plan(targets.stream().map(TargetProperties::name).toList(),
				engines.stream().map((engine) -> instance(engine).key()).collect(Collectors.toSet()));
		return targets.stream()
			.allMatch((target) -> engines.stream()
				.allMatch((
						engine) -> owns(engine, target.name()) == (instance(engine).key() == plan.get(target.name()))));
	}

	private static Instance instance(HeartbeatEngine engine) {
		return engine.fleet.all().get(0).ownership().rendezvous().self();
	}

	private static List<Integer> counts(List<HeartbeatEngine> engines, List<TargetProperties> targets) {
		return engines.stream()
			.map((engine) -> (int) targets.stream().filter((target) -> owns(engine, target.name())).count())
			.collect(Collectors.toList());
	}

}
