package io.slotkeeper.bench;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import io.slotkeeper.config.TargetProperties;
import io.slotkeeper.testbed.LogicalConsumer;
import io.slotkeeper.testbed.PostgresServer;
import io.slotkeeper.testbed.PostgresTestBed;

import static io.slotkeeper.testbed.TestTargets.target;
import static org.awaitility.Awaitility.await;

/**
 * Retained WAL of idle databases' slots while a neighbour writes, with plain heartbeats
 * and with heartbeats ordered with a standby snapshot, side by side: two servers (a
 * running-transactions record is cluster-wide, so ordered beats would move the plain
 * runs' slots too), each with the same neighbour load, in the same run.
 */
final class RetainedWalBench {

	static final int[] INTERVALS = { 1, 5, 10, 30, 60 };

	private RetainedWalBench() {
	}

	private record Run(String label, PostgresServer server, String slot, boolean messages, String mode,
			Integer seconds) {
	}

	static void run(BenchReport report, Duration window) throws Exception {
		try (PostgresServer plain = PostgresTestBed.dedicated(Map.of("max_slot_wal_keep_size", "-1"));
				PostgresServer ordered = PostgresTestBed.dedicated(Map.of("max_slot_wal_keep_size", "-1"))) {
			List<Run> runs = new ArrayList<>();
			runs.add(new Run("no heartbeat", plain, "none", true, null, null));
			for (int seconds : INTERVALS) {
				runs.add(new Run("plain " + seconds + " s", plain, "plain" + seconds, true, "message", seconds));
			}
			runs.add(new Run("plain table 1 s", plain, "plaintable1", false, "table", 1));
			for (int seconds : INTERVALS) {
				runs.add(new Run("ordered " + seconds + " s", ordered, "ordered" + seconds, true, "message", seconds));
			}
			runs.add(new Run("ordered table 1 s", ordered, "orderedtable1", false, "table", 1));
			measure(report, window, plain, ordered, runs);
		}
	}

	private static void measure(BenchReport report, Duration window, PostgresServer plain, PostgresServer ordered,
			List<Run> runs) throws Exception {
		List<AutoCloseable> closing = new ArrayList<>();
		List<TargetProperties> targets = new ArrayList<>();
		for (Run run : runs) {
			String database = run.server().createDatabase();
			run.server()
				.execute(database,
						"CREATE TABLE slotkeeper_heartbeat (id integer PRIMARY KEY, beat_at timestamptz NOT NULL)",
						"CREATE TABLE orders (id bigserial PRIMARY KEY)",
						"CREATE PUBLICATION pub FOR TABLE orders, slotkeeper_heartbeat",
						"SELECT pg_create_logical_replication_slot('" + run.slot() + "', 'pgoutput')");
			closing.add(new LogicalConsumer(run.server(), database, run.slot(), "pub", run.messages()));
			if (run.mode() != null) {
				targets.add(target(run.slot(), run.server(), database, "heartbeat.mode", run.mode(),
						"heartbeat.interval", run.seconds() + "s", "heartbeat.standby-snapshot",
						(run.server() == ordered) ? "auto" : "off"));
			}
		}
		Map<String, List<double[]>> samples = new LinkedHashMap<>();
		runs.forEach((run) -> samples.put(run.label(), new ArrayList<>()));
		List<Neighbour> neighbours = List.of(new Neighbour(plain), new Neighbour(ordered));
		try (BenchSupport.Engine engine = new BenchSupport.Engine(targets)) {
			long start = System.nanoTime();
			neighbours.forEach(Neighbour::start);
			while (System.nanoTime() - start < window.toNanos()) {
				double seconds = (System.nanoTime() - start) / 1e9;
				for (Run run : runs) {
					samples.get(run.label())
						.add(new double[] { seconds, BenchSupport.retainedMib(run.server(), run.slot()) });
				}
				await().pollDelay(Duration.ofSeconds(1)).atMost(Duration.ofSeconds(2)).until(() -> true);
			}
			double elapsed = (System.nanoTime() - start) / 1e9;
			neighbours.forEach(Neighbour::stop);
			report(report, runs, samples, elapsed, neighbours, window);
		}
		finally {
			neighbours.forEach(Neighbour::stop);
			for (AutoCloseable each : closing) {
				each.close();
			}
		}
	}

	private static void report(BenchReport report, List<Run> runs, Map<String, List<double[]>> samples, double elapsed,
			List<Neighbour> neighbours, Duration window) {
		double plainRate = neighbours.get(0).rate(elapsed);
		double orderedRate = neighbours.get(1).rate(elapsed);
		Map<String, Double> steady = new LinkedHashMap<>();
		runs.forEach((run) -> steady.put(run.label(),
				samples.get(run.label())
					.stream()
					.filter((p) -> p[0] >= elapsed / 2)
					.mapToDouble((p) -> p[1])
					.max()
					.orElse(0)));
		List<List<Object>> rows = new ArrayList<>();
		int met = 0;
		for (int seconds : INTERVALS) {
			double plainMax = steady.get("plain " + seconds + " s");
			double orderedMax = steady.get("ordered " + seconds + " s");
			double goal = (orderedRate * (seconds + 2) + 16e6) / 1048576;
			met += (orderedMax <= goal) ? 1 : 0;
			rows.add(List.of(seconds + " s", mib(plainMax, plainRate), mib(orderedMax, orderedRate),
					String.format("%.0f", goal), (orderedMax <= goal) ? "yes" : "**no**"));
		}
		rows.add(List.of("table mode 1 s", mib(steady.get("plain table 1 s"), plainRate),
				mib(steady.get("ordered table 1 s"), orderedRate),
				String.format("%.0f", (orderedRate * 3 + 16e6) / 1048576), "—"));
		rows.add(List.of("no heartbeat", mib(steady.get("no heartbeat"), plainRate), "—", "—", "—"));
		BenchReport.xyChart("retained-wal.png", "Retained WAL with plain heartbeats (neighbour writing)", "seconds",
				"retained WAL (MiB)", series(runs, samples, "plain", "no heartbeat"));
		BenchReport.xyChart("retained-wal-ordered.png", "Retained WAL with ordered standby snapshots", "seconds",
				"retained WAL (MiB)", series(runs, samples, "ordered", null));
		report.section("## 2. Retained WAL under a busy neighbour: plain beats and beats ordered with a snapshot\n\n"
				+ "One idle database per run, each with a pgoutput slot and a consumer that confirms what it receives"
				+ " at once (PgJDBC, automatic flush off); message mode, the consumer asking for messages (table mode:"
				+ " the table in its publication, no messages). Two servers side by side for " + window.toMinutes()
				+ " minutes, each with a neighbour database writing the same load (measured "
				+ String.format("%.1f", plainRate / 1048576) + " and " + String.format("%.1f", orderedRate / 1048576)
				+ " MiB/s): on one, plain beats (`standby-snapshot: off`); on the other, beats ordered with a standby"
				+ " snapshot (message; once the slot confirmed it, `pg_log_standby_snapshot()` and a second message)."
				+ " Apart because a running-transactions record is cluster-wide. No forced checkpoints. Retained ="
				+ " `pg_current_wal_lsn() - restart_lsn`, sampled every second; the steady-state maximum over the"
				+ " second half, and in brackets the seconds of the neighbour's WAL it amounts to. Goal for ordered"
				+ " beats: rate × (interval + 2 s) + 16 MB.\n\n"
				+ BenchReport.table(List.of("interval", "plain: max MiB (s of WAL)", "ordered: max MiB (s of WAL)",
						"goal (MiB)", "ordered within goal"), rows)
				+ "\nOrdered beats within the goal at " + met + " of " + INTERVALS.length + " intervals."
				+ "\n\n![Retained WAL, plain](retained-wal.png)\n![Retained WAL, ordered](retained-wal-ordered.png)\n");
	}

	private static String mib(double max, double rate) {
		return String.format("%.0f (%.1f s)", max, max * 1048576 / rate);
	}

	private static Map<String, double[][]> series(List<Run> runs, Map<String, List<double[]>> samples, String prefix,
			String also) {
		Map<String, double[][]> series = new LinkedHashMap<>();
		for (Run run : runs) {
			if (run.label().startsWith(prefix) || run.label().equals(also)) {
				List<double[]> points = samples.get(run.label());
				series.put(run.label(), new double[][] { points.stream().mapToDouble((p) -> p[0]).toArray(),
						points.stream().mapToDouble((p) -> p[1]).toArray() });
			}
		}
		return series;
	}

	/**
	 * About 5 MB/s into a database of its own: 400 rows of 1.3 KB every 100 ms, the table
	 * emptied every minute to bound the disk.
	 */
	private static final class Neighbour {

		private final PostgresServer server;

		private final String database;

		private final ScheduledExecutorService writer = Executors.newSingleThreadScheduledExecutor();

		private final AtomicLong batches = new AtomicLong();

		private long startLsn;

		private long endLsn;

		Neighbour(PostgresServer server) {
			this.server = server;
			this.database = server.createDatabase();
			server.execute(this.database, "CREATE TABLE load (id bigserial PRIMARY KEY, payload text NOT NULL)");
		}

		void start() {
			this.startLsn = BenchSupport.currentLsn(this.server);
			this.writer.scheduleAtFixedRate(() -> this.server.execute(this.database,
					(this.batches.incrementAndGet() % 600 == 0) ? "TRUNCATE load"
							: "INSERT INTO load (payload) SELECT repeat(md5(random()::text), 40)"
									+ " FROM generate_series(1, 400)"),
					0, 100, TimeUnit.MILLISECONDS);
		}

		void stop() {
			if (!this.writer.isShutdown()) {
				this.writer.shutdownNow();
				try {
					this.writer.awaitTermination(10, TimeUnit.SECONDS);
				}
				catch (InterruptedException ex) {
					Thread.currentThread().interrupt();
				}
				this.endLsn = BenchSupport.currentLsn(this.server);
			}
		}

		double rate(double seconds) {
			return (this.endLsn - this.startLsn) / seconds;
		}

	}

}
