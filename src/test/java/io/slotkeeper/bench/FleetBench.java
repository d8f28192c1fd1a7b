package io.slotkeeper.bench;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Collectors;

import org.HdrHistogram.Histogram;

import io.slotkeeper.config.TargetProperties;
import io.slotkeeper.fleet.BeatLog;
import io.slotkeeper.fleet.Instance;
import io.slotkeeper.fleet.OwnershipPlan;
import io.slotkeeper.fleet.Rendezvous;
import io.slotkeeper.heartbeat.TargetHeartbeat;
import io.slotkeeper.testbed.PostgresServer;
import io.slotkeeper.testbed.SilentServer;

import static io.slotkeeper.testbed.TestTargets.target;
import static org.awaitility.Awaitility.await;

/**
 * The heartbeat engine with many targets on one instance, some of them hung, and a fleet
 * shared by three instances.
 */
final class FleetBench {

	private FleetBench() {
	}

	private record Size(int targets, int hung) {
	}

	static void oneInstance(BenchReport report, PostgresServer server, List<String> databases, Duration window)
			throws Exception {
		List<List<Object>> rows = new ArrayList<>();
		List<String> categories = new ArrayList<>();
		List<Double> p50s = new ArrayList<>();
		List<Double> p99s = new ArrayList<>();
		ThreadMXBean threads = ManagementFactory.getThreadMXBean();
		for (Size size : List.of(new Size(10, 0), new Size(100, 0), new Size(1000, 0), new Size(1000, 100))) {
			try (SilentServer silent = new SilentServer()) {
				List<TargetProperties> targets = new ArrayList<>();
				for (int i = 0; i < size.targets(); i++) {
					targets.add((i < size.hung())
							? target("fleet-" + i, "jdbc:postgresql://127.0.0.1:" + silent.port() + "/hung", "username",
									"nobody", "heartbeat.interval", "1s")
							: target("fleet-" + i, server, databases.get(i % databases.size()), "heartbeat.interval",
									"1s"));
				}
				int baseline = threads.getThreadCount();
				threads.resetPeakThreadCount();
				long cpuBefore = BenchReport.cpuNanos();
				long start = System.nanoTime();
				Histogram drift = new Histogram(60_000, 3);
				long beats = 0;
				int sessions;
				try (BenchSupport.Engine engine = new BenchSupport.Engine(targets)) {
					BenchSupport.idle(window);
					sessions = BenchSupport.sessions(server);
					for (TargetHeartbeat heartbeat : engine.heartbeats.all()) {
						List<BeatLog.Beat> written = heartbeat.target().beats().list();
						beats += heartbeat.status().emissions();
						for (int i = 1; i < written.size(); i++) {
							long gap = Duration.between(written.get(i - 1).at(), written.get(i).at()).toMillis();
							drift.recordValue(Math.min(59_999, Math.abs(gap - 1000)));
						}
					}
				}
				double seconds = (System.nanoTime() - start) / 1e9;
				double cpu = (BenchReport.cpuNanos() - cpuBefore) / 1e9;
				String label = size.targets() + ((size.hung() > 0) ? " (" + size.hung() + " hung)" : "");
				categories.add(label);
				p50s.add((double) drift.getValueAtPercentile(50));
				p99s.add((double) drift.getValueAtPercentile(99));
				rows.add(List.of(label, String.format("%.0f", beats / seconds), drift.getValueAtPercentile(50),
						drift.getValueAtPercentile(99), drift.getMaxValue(), String.format("%.1f", cpu),
						threads.getPeakThreadCount() - baseline, sessions));
			}
		}
		BenchReport.barChart("fleet-drift.png", "Schedule drift at a 1 s interval", "ms", categories,
				new LinkedHashMap<>(Map.of("p50", p50s, "p99", p99s)));
		report.section("## 3. Fleet scale\n\nN targets (spread over " + databases.size() + " databases of one server,"
				+ " `max_connections` 2600) at a 1 s interval on one instance's heartbeat engine for "
				+ window.toSeconds() + " s each; in the last run 100 of the 1,000 are *hung*: their address accepts"
				+ " connections and never answers (each attempt holds a thread for the 5 s connect timeout, then backs"
				+ " off). Drift = |gap between two beats of a target − 1 s| over the targets that answer. Threads ="
				+ " the JVM's peak during the run above its count before (the engine's timer and workers). CPU is the"
				+ " JVM's process CPU time during the run.\n\n"
				+ BenchReport.table(List.of("targets", "beats/s", "drift p50 (ms)", "drift p99 (ms)", "drift max (ms)",
						"CPU s", "threads (peak, engine)", "heartbeat sessions"), rows)
				+ "\nWorkers run in three bounded lanes (at most 16 threads for beats on open, healthy sessions, 16 for"
				+ " first connections and reconnections, 8 for retries after a failure), so threads no longer follow"
				+ " the attempts in flight: hung targets queue in the retry lane, and the targets that answer keep"
				+ " their schedule.\n\n![Fleet drift](fleet-drift.png)\n");
	}

	static void threeInstances(BenchReport report, PostgresServer server, List<String> databases) throws Exception {
		int count = 300;
		List<TargetProperties> targets = new ArrayList<>();
		for (int i = 0; i < count; i++) {
			targets.add(target("shared-" + i, server, databases.get(i % databases.size()), "heartbeat.interval", "1s"));
		}
		List<Instance> instances = List.of(Instance.named("bench-a"), Instance.named("bench-b"),
				Instance.named("bench-c"));
		List<BenchSupport.Engine> engines = new ArrayList<>();
		AtomicInteger mostOwners = new AtomicInteger();
		ScheduledExecutorService watcher = Executors.newSingleThreadScheduledExecutor();
		try {
			long start = System.nanoTime();
			instances.forEach((instance) -> engines.add(new BenchSupport.Engine(targets, instance)));
			watcher.scheduleAtFixedRate(
					() -> targets.forEach((target) -> mostOwners.accumulateAndGet(
							(int) engines.stream().filter((engine) -> owns(engine, target.name())).count(), Math::max)),
					0, 10, TimeUnit.MILLISECONDS);
			await().atMost(Duration.ofMinutes(2)).until(() -> asPlanned(engines, targets));
			double settled = (System.nanoTime() - start) / 1e9;
			List<Long> owned = engines.stream().map(BenchSupport.Engine::owned).toList();
			int sessions = BenchSupport.sessions(server);
			BenchSupport.Engine stopped = engines.remove(0);
			long moving = stopped.owned();
			long stop = System.nanoTime();
			List<String> theirs = targets.stream()
				.map(TargetProperties::name)
				.filter((name) -> owns(stopped, name))
				.toList();
			stopped.close();
			await().atMost(Duration.ofMinutes(1))
				.until(() -> theirs.stream()
					.allMatch((name) -> engines.stream().filter((engine) -> owns(engine, name)).count() == 1));
			double moved = (System.nanoTime() - stop) / 1e6;
			await().atMost(Duration.ofMinutes(1)).until(() -> asPlanned(engines, targets));
			double rebalanced = (System.nanoTime() - stop) / 1e9;
			List<Long> after = engines.stream().map(BenchSupport.Engine::owned).toList();
			report.section("### 3 instances sharing 300 targets\n\nThree heartbeat engines with identities bench-a,"
					+ " bench-b and bench-c on the same 300 targets (1 s interval), started together. Each target"
					+ " ends up owned by the instance the plan gives it (rendezvous hashing with bounded loads) **"
					+ String.format("%.1f", settled) + " s** after start; owned: **" + owned + "** (goal: 90–110 each;"
					+ " plain rendezvous hashing would give these identities " + plainShares(targets, instances) + ")."
					+ " Heartbeat sessions on the server: " + sessions + " (" + (sessions / 3) + " per instance: one"
					+ " per target, owner or not). Stopping bench-a: its " + moving + " targets owned again by the"
					+ " others in **" + String.format("%.0f", moved) + " ms** (interval 1 s); shares even again "
					+ String.format("%.1f", rebalanced) + " s after the stop, once every target was read again: "
					+ after + ". Most owners any target had at one moment (sampled every 10 ms, whole run): **"
					+ mostOwners.get() + "**.\n");
		}
		finally {
			watcher.shutdownNow();
			watcher.awaitTermination(5, TimeUnit.SECONDS);
			engines.forEach(BenchSupport.Engine::close);
		}
	}

	private static boolean owns(BenchSupport.Engine engine, String target) {
		return engine.fleet.get(target).ownership().owned();
	}

	private static boolean asPlanned(List<BenchSupport.Engine> engines, List<TargetProperties> targets) {
		Map<String, Integer> plan = OwnershipPlan.plan(targets.stream().map(TargetProperties::name).toList(),
				engines.stream().map(FleetBench::key).collect(Collectors.toSet()));
		return targets.stream()
			.allMatch((target) -> engines.stream()
				.allMatch((engine) -> owns(engine, target.name()) == (key(engine) == plan.get(target.name()))));
	}

	private static int key(BenchSupport.Engine engine) {
		return engine.fleet.all().get(0).ownership().rendezvous().self().key();
	}

	// What each instance would own if every target went to its highest score, without
	// bounded loads.
	private static List<Long> plainShares(List<TargetProperties> targets, List<Instance> instances) {
		return instances.stream()
			.map((instance) -> targets.stream()
				.filter((target) -> instances.stream()
					.max(Comparator.comparingLong((Instance each) -> Rendezvous.score(target.name(), each.key())))
					.orElseThrow() == instance)
				.count())
			.toList();
	}

}
