package io.slotkeeper.soak;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import io.slotkeeper.security.TokenHashes;
import io.slotkeeper.testbed.KafkaBroker;
import io.slotkeeper.testbed.RealKafkaConnect;
import io.slotkeeper.testbed.ReplicatedServer;
import io.slotkeeper.testbed.StrimziManagedConnect;
import io.slotkeeper.testbed.TcpProxy;

import static org.awaitility.Awaitility.await;

/**
 * The real pieces of a soak on this machine: a PostgreSQL 17 primary whose slots are lost
 * at the first checkpoint past 1 MB of retained WAL, and its standby, which synchronizes
 * the connectors' failover slots and takes over at a switchover
 * ({@link ReplicatedServer}); a Kafka broker; three databases of it that slot-keeper
 * finds by itself (one {@code servers} entry, {@code databases: auto}), two of them
 * captured, each with a Kafka Connect worker running Debezium on {@code public.orders} —
 * one connector reached through the REST API, one through a Strimzi
 * {@code KafkaConnector} resource on a Kubernetes API stand-in that an operator emulation
 * reconciles; two slot-keeper instances in JVMs of their own (configured through
 * environment variables, healing on, re-snapshot by signal) reaching PostgreSQL each
 * through a TCP forwarder of its own that can stall; writers, and a keyed view of each
 * topic.
 */
final class SoakWorld implements AutoCloseable {

	static final String TOKEN = "soak-viewer-token";

	/**
	 * slot-keeper's name of the server: its databases' targets are
	 * {@code soak-<database>}.
	 */
	static final String SERVER = "soak";

	// Debezium creates its slot as one PostgreSQL 17 synchronizes to the standby.
	private static final Map<String, String> FAILOVER_SLOT = Map.of("slot.failover", "true");

	// In postgresql.auto.conf, as an operator sets it: a value given on the command line
	// ALTER SYSTEM cannot override,
	// and slot-keeper would only say it may not raise it.
	final ReplicatedServer server = new ReplicatedServer(Map.of("max_slot_wal_keep_size", SoakVerdict.KEEP_SIZE));

	final List<SoakPipeline> pipelines = new ArrayList<>();

	/**
	 * Each instance's own network path to the primary's Service: a fault stalls one
	 * instance's or all.
	 */
	final List<TcpProxy> networks = new ArrayList<>();

	final List<Instance> instances = new ArrayList<>();

	/**
	 * A third database, found by {@code databases: auto} for its logical slot that no
	 * connector reads (it is lost at the first checkpoint past 1 MB and stays lost: no
	 * policy asks for a heal).
	 */
	final String uncaptured;

	final Path logs;

	SoakWorld(long seed, int writesPerSecond) {
		try {
			this.logs = Files.createTempDirectory("soak-" + seed + "-");
			this.pipelines.add(new SoakPipeline(this.server, SERVER, "debezium", (database) -> new RestSide(
					new RealKafkaConnect(KafkaBroker.shared(), this.server, database, "debezium", FAILOVER_SLOT))));
			this.pipelines.add(new SoakPipeline(this.server, SERVER, "debezium_strimzi",
					(database) -> new StrimziSide(new StrimziManagedConnect(KafkaBroker.shared(), this.server, database,
							"debezium_strimzi", FAILOVER_SLOT))));
			this.uncaptured = this.server.createDatabase();
			this.server.execute(this.uncaptured,
					"SELECT pg_catalog.pg_create_logical_replication_slot('abandoned', 'test_decoding')");
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
		for (int n = 0; n < 2; n++) {
			TcpProxy network = new TcpProxy(this.server.host(), this.server.port());
			this.networks.add(network);
			this.instances
				.add(new Instance("instance-" + n, environment(network), this.logs.resolve("instance-" + n + ".log")));
		}
		await().atMost(Duration.ofSeconds(90))
			.until(() -> this.instances.stream()
				.allMatch((instance) -> instance.get("/actuator/health/liveness", null) != null));
		for (int n = 0; n < this.pipelines.size(); n++) {
			this.pipelines.get(n).startWriting(this.server, seed + 1 + n, writesPerSecond / this.pipelines.size());
		}
	}

	// As an operator writes them in a Deployment: every property through its environment
	// variable; the server
	// configured once, its databases found (databases: auto), each captured one's slot
	// policy an override.
	private Map<String, String> environment(TcpProxy network) {
		String server = "SLOTKEEPER_SERVERS_0_";
		Map<String, String> variables = new HashMap<>(Map.ofEntries(Map.entry("SLOTKEEPER_API_TOKENS_0_NAME", "soak"),
				Map.entry("SLOTKEEPER_API_TOKENS_0_ROLE", "viewer"),
				Map.entry("SLOTKEEPER_API_TOKENS_0_SHA256", TokenHashes.sha256Hex(TOKEN)),
				Map.entry(server + "NAME", SERVER),
				Map.entry(server + "URL", "jdbc:postgresql://127.0.0.1:" + network.port() + "/postgres"),
				Map.entry(server + "USERNAME", this.server.user()), Map.entry(server + "DATABASES", "auto"),
				Map.entry("SLOTKEEPER_GAP_JOURNAL_AFTER", "2s"), Map.entry(server + "HEARTBEAT_INTERVAL", "1s"),
				Map.entry(server + "SLOTS_POLL_INTERVAL", "1s"), Map.entry(server + "CONNECTION_CONNECT_TIMEOUT", "3s"),
				Map.entry(server + "CONNECTION_STATEMENT_TIMEOUT", "5s"),
				Map.entry(server + "REPLICAS_0_NAME", "standby"), Map.entry(server + "REPLICAS_0_URL",
						"jdbc:postgresql://127.0.0.1:" + this.server.standbyPort() + "/postgres")));
		for (int n = 0; n < this.pipelines.size(); n++) {
			variables.putAll(this.pipelines.get(n).environment(server + "OVERRIDES_" + n + "_"));
		}
		return variables;
	}

	/**
	 * The pipeline a fault drawn for a connector hits.
	 * @param victim the fault's victim number
	 * @return the pipeline
	 */
	SoakPipeline pipeline(int victim) {
		return this.pipelines.get(victim % this.pipelines.size());
	}

	/**
	 * The pipeline whose connector a {@code KafkaConnector} resource manages.
	 * @return it
	 */
	SoakPipeline managedPipeline() {
		return this.pipelines.stream()
			.filter((pipeline) -> pipeline.side instanceof StrimziSide)
			.findFirst()
			.orElseThrow();
	}

	/**
	 * The Strimzi-managed pipeline's Kubernetes API stand-in.
	 * @return it
	 */
	io.slotkeeper.testbed.StrimziResources kubernetesApi() {
		return ((StrimziSide) managedPipeline().side).strimzi().api();
	}

	void stopWriting() {
		this.pipelines.forEach((pipeline) -> pipeline.writers().close());
	}

	@Override
	public void close() {
		stopWriting();
		this.instances.forEach(Instance::close);
		this.pipelines.forEach(SoakPipeline::close);
		for (TcpProxy network : this.networks) {
			try {
				network.close();
			}
			catch (IOException ex) {
				// closing anyway
			}
		}
		this.server.close();
	}

}
