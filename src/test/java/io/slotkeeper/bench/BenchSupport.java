package io.slotkeeper.bench;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;

import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;

import io.slotkeeper.SlotKeeperApplication;
import io.slotkeeper.config.TargetProperties;
import io.slotkeeper.fleet.Fleet;
import io.slotkeeper.fleet.Instance;
import io.slotkeeper.heartbeat.HeartbeatScheduler;
import io.slotkeeper.heartbeat.Heartbeats;
import io.slotkeeper.lanes.LaneWatch;
import io.slotkeeper.security.TokenHashes;
import io.slotkeeper.sessions.Lsn;
import io.slotkeeper.sessions.NodeConnector;
import io.slotkeeper.testbed.PostgresServer;

import static org.awaitility.Awaitility.await;

/**
 * What the benchmark's scenarios share: the application on a target, the heartbeat engine
 * alone, and a few readings.
 */
final class BenchSupport {

	static final String TOKEN = "bench-token";

	private BenchSupport() {
	}

	static ConfigurableApplicationContext app(PostgresServer postgres, String database, Map<String, String> extra) {
		List<String> args = new ArrayList<>(List.of("--server.port=0", "--slotkeeper.targets[0].name=bench",
				"--slotkeeper.targets[0].url=" + postgres.jdbcUrl(database),
				"--slotkeeper.targets[0].username=" + postgres.user(), "--slotkeeper.api.tokens[0].name=bench",
				"--slotkeeper.api.tokens[0].role=operator",
				"--slotkeeper.api.tokens[0].sha256=" + TokenHashes.sha256Hex(TOKEN), "--logging.level.root=WARN"));
		extra.forEach((key, value) -> args.add("--" + key + "=" + value));
		return new SpringApplicationBuilder(SlotKeeperApplication.class).run(args.toArray(String[]::new));
	}

	static String base(ConfigurableApplicationContext app) {
		return "http://localhost:" + app.getEnvironment().getProperty("local.server.port");
	}

	static int freePort() throws IOException {
		try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
			return socket.getLocalPort();
		}
	}

	static long lsn(Statement statement) throws Exception {
		try (ResultSet result = statement.executeQuery("SELECT pg_current_wal_lsn()")) {
			result.next();
			return Lsn.parse(result.getString(1));
		}
	}

	static long currentLsn(PostgresServer server) {
		return Lsn.parse(server.queryForString("postgres", "SELECT pg_current_wal_lsn()"));
	}

	static double retainedMib(PostgresServer server, String slot) {
		String bytes = server.queryForString("postgres",
				"SELECT pg_current_wal_lsn() - restart_lsn FROM pg_replication_slots WHERE slot_name = '" + slot + "'");
		return (bytes != null) ? Double.parseDouble(bytes) / 1048576 : 0;
	}

	static int sessions(PostgresServer server) {
		return Integer.parseInt(server.queryForString("postgres",
				"SELECT count(*) FROM pg_stat_activity WHERE application_name = 'slot-keeper'"));
	}

	static int threadsOf(long pid) {
		try {
			return Files.readAllLines(Path.of("/proc/" + pid + "/status"))
				.stream()
				.filter((line) -> line.startsWith("Threads:"))
				.map((line) -> Integer.parseInt(line.replaceAll("\\D", "")))
				.findFirst()
				.orElse(-1);
		}
		catch (IOException ex) {
			return -1;
		}
	}

	static void idle(Duration duration) {
		await().pollDelay(duration).atMost(duration.plusSeconds(5)).until(() -> true);
	}

	/**
	 * The heartbeat engine as the application wires it, as one instance.
	 */
	static final class Engine implements AutoCloseable {

		final Fleet fleet;

		final Heartbeats heartbeats;

		final HeartbeatScheduler scheduler;

		Engine(List<TargetProperties> targets) {
			this(targets, Instance.random());
		}

		Engine(List<TargetProperties> targets, Instance instance) {
			NodeConnector connector = new NodeConnector(java.time.Clock.systemUTC());
			this.fleet = new Fleet(targets, List.of(), connector, instance, java.time.Clock.systemUTC());
			this.heartbeats = new Heartbeats(this.fleet, connector, new SimpleMeterRegistry(), Clock.systemUTC());
			this.scheduler = new HeartbeatScheduler(this.heartbeats, this.fleet, this.heartbeats.longestAttempt(),
					new LaneWatch(new SimpleMeterRegistry(), Clock.systemUTC()));
			this.scheduler.start();
		}

		long owned() {
			return this.fleet.all().stream().filter((target) -> target.ownership().owned()).count();
		}

		@Override
		public void close() {
			this.scheduler.stop();
			this.heartbeats.close();
			this.fleet.close();
		}

	}

}
