package io.slotkeeper.soak;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import io.slotkeeper.security.TokenHashes;
import io.slotkeeper.testbed.KafkaBroker;
import io.slotkeeper.testbed.PostgresServer;
import io.slotkeeper.testbed.PostgresTestBed;
import io.slotkeeper.testbed.RealKafkaConnect;
import io.slotkeeper.testbed.TcpProxy;

import static org.awaitility.Awaitility.await;

/**
 * The real pieces of a soak on this machine: a PostgreSQL primary whose slot is lost at the first checkpoint past
 * 1 MB of retained WAL, a Kafka broker and a Kafka Connect worker running Debezium on {@code public.orders}, two
 * slot-keeper instances in JVMs of their own (configured through environment variables, healing on, re-snapshot by
 * signal) reaching PostgreSQL through a TCP forwarder that can stall, writers, and a keyed view of the topic.
 */
final class SoakWorld implements AutoCloseable {

	static final String TOKEN = "soak-viewer-token";

	static final String SLOT = "debezium";

	final PostgresServer server = PostgresTestBed.dedicated(Map.of("max_slot_wal_keep_size", "1MB"));

	final String database = this.server.createDatabase();

	final RealKafkaConnect connect;

	final KeyedTopic view;

	final TcpProxy network;

	final List<Instance> instances = new ArrayList<>();

	final Writers writers;

	final Path logs;

	SoakWorld(long seed, int writesPerSecond) {
		List<String> schema = new ArrayList<>(Writers.SCHEMA);
		schema.add("CREATE TABLE debezium_signal (id varchar(42) PRIMARY KEY, type varchar(32) NOT NULL,"
				+ " data varchar(2048))");
		this.server.execute(this.database, schema.toArray(String[]::new));
		try {
			this.logs = Files.createTempDirectory("soak-" + seed + "-");
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
		this.connect = new RealKafkaConnect(KafkaBroker.shared(), this.server, this.database, SLOT, Map.of());
		await().atMost(Duration.ofSeconds(60)).until(() -> "1".equals(this.server.queryForString(this.database,
				"SELECT count(*) FROM pg_replication_slots WHERE slot_name = '" + SLOT + "'")));
		this.view = new KeyedTopic(KafkaBroker.shared().bootstrap(), this.connect.prefix());
		this.network = new TcpProxy(this.server.host(), this.server.port());
		for (int n = 0; n < 2; n++) {
			this.instances.add(new Instance("instance-" + n, environment(), this.logs.resolve("instance-" + n + ".log")));
		}
		await().atMost(Duration.ofSeconds(90)).until(() -> this.instances.stream()
			.allMatch((instance) -> instance.get("/actuator/health/liveness", null) != null));
		this.writers = new Writers(this.server, this.database, seed + 1, writesPerSecond);
	}

	// As an operator writes them in a Deployment: every property through its environment variable.
	private Map<String, String> environment() {
		return Map.ofEntries(Map.entry("SLOTKEEPER_TARGETS_0_NAME", "orders"),
				Map.entry("SLOTKEEPER_TARGETS_0_URL", "jdbc:postgresql://127.0.0.1:" + this.network.port() + "/"
						+ this.database),
				Map.entry("SLOTKEEPER_TARGETS_0_USERNAME", this.server.user()),
				Map.entry("SLOTKEEPER_TARGETS_0_HEARTBEAT_INTERVAL", "1s"),
				Map.entry("SLOTKEEPER_TARGETS_0_SLOTS_POLL_INTERVAL", "1s"),
				Map.entry("SLOTKEEPER_TARGETS_0_CONNECTION_CONNECT_TIMEOUT", "3s"),
				Map.entry("SLOTKEEPER_TARGETS_0_CONNECTION_STATEMENT_TIMEOUT", "5s"),
				Map.entry("SLOTKEEPER_TARGETS_0_SLOTS_0_NAME", SLOT),
				Map.entry("SLOTKEEPER_TARGETS_0_SLOTS_0_ON_LOST", "recreate"),
				Map.entry("SLOTKEEPER_TARGETS_0_SLOTS_0_MAX_RECREATIONS_PER_HOUR",
						Integer.toString(SoakVerdict.HEALS_PER_HOUR)),
				Map.entry("SLOTKEEPER_TARGETS_0_SLOTS_0_CONNECTOR_URL", this.connect.url()),
				Map.entry("SLOTKEEPER_TARGETS_0_SLOTS_0_CONNECTOR_NAME", RealKafkaConnect.NAME),
				Map.entry("SLOTKEEPER_TARGETS_0_SLOTS_0_CONNECTOR_OFFSETS", "align"),
				Map.entry("SLOTKEEPER_TARGETS_0_SLOTS_0_CONNECTOR_RUNNING_TIMEOUT", "30s"),
				Map.entry("SLOTKEEPER_TARGETS_0_SLOTS_0_RESNAPSHOT_MODE", "debezium-signal"),
				Map.entry("SLOTKEEPER_API_TOKENS_0_NAME", "soak"),
				Map.entry("SLOTKEEPER_API_TOKENS_0_ROLE", "viewer"),
				Map.entry("SLOTKEEPER_API_TOKENS_0_SHA256", TokenHashes.sha256Hex(TOKEN)));
	}

	@Override
	public void close() {
		this.writers.close();
		this.instances.forEach(Instance::close);
		this.view.close();
		this.connect.close();
		try {
			this.network.close();
		}
		catch (IOException ex) {
			// closing anyway
		}
		this.server.close();
	}

}
