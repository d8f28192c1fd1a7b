package io.slotkeeper.testbed;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * A real Kafka Connect worker whose connector Strimzi manages: a {@code KafkaConnector}
 * resource (namespace {@code cdc}, {@code spec.autoRestart} on) on a Kubernetes API
 * stand-in, reconciled to the worker by the operator emulation on every change and every
 * 2 minutes, as Strimzi does. slot-keeper is told the resource, not the REST URL.
 */
public final class StrimziManagedConnect implements CdcConnector {

	/**
	 * The resource's namespace.
	 */
	public static final String NAMESPACE = "cdc";

	/**
	 * The {@code KafkaConnect} the resource is labelled with, whose {@code status.url} is
	 * the worker's REST address.
	 */
	public static final String CLUSTER = "cdc-connect";

	/**
	 * How often the operator emulation reconciles every resource without an event:
	 * Strimzi's default ({@code STRIMZI_FULL_RECONCILIATION_INTERVAL_MS}, 120 s), which
	 * slot-keeper must not depend on a shorter one of.
	 */
	public static final Duration FULL_RECONCILIATION = Duration.ofMinutes(2);

	private static final String TOKEN = "slot-keeper-service-account-token";

	private final RealKafkaConnect connect;

	private final StrimziResources api;

	private final StrimziOperator operator;

	private final Path tokenFile;

	/**
	 * Starts the worker and its connector, creates the resource and starts reconciling
	 * it.
	 * @param broker the broker
	 * @param server the database server
	 * @param database the database
	 * @param slot the connector's slot
	 * @param settings the connector's further settings
	 */
	public StrimziManagedConnect(KafkaBroker broker, PostgresServer server, String database, String slot,
			Map<String, String> settings) {
		this.connect = new RealKafkaConnect(broker, server, database, slot, settings);
		this.api = new StrimziResources(TOKEN, "v1", "v1beta2");
		try {
			this.tokenFile = Files.createTempFile(broker.directory(), "token", "");
			Files.writeString(this.tokenFile, TOKEN);
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
		this.operator = new StrimziOperator(this.api, this.connect.url(), FULL_RECONCILIATION);
		Map<String, Object> config = new java.util.HashMap<>(this.connect.config());
		Object connectorClass = config.remove("connector.class");
		// Built as Strimzi builds a worker's image: the Debezium connector and
		// slot-keeper's extension, which the real worker carries too.
		Map<String, Object> debezium = Map.of("name", "debezium-postgres", "artifacts", List
			.of(Map.of("type", "tgz", "url", "https://repo1.maven.org/maven2/io/debezium/"
					+ "debezium-connector-postgres/3.6.1.Final/debezium-connector-postgres-3.6.1.Final-plugin.tar.gz")));
		Map<String, Object> extension = Map.of("name", "slot-keeper", "artifacts", List
			.of(Map.of("type", "jar", "url", "https://example.org/releases/slot-keeper-debezium-extension-0.1.0.jar")));
		this.api.createConnect(NAMESPACE, CLUSTER, this.connect.url(),
				Map.of("build", Map.of("plugins", List.of(debezium, extension))));
		this.api.createConnector(NAMESPACE, RealKafkaConnect.NAME, Map.of("strimzi.io/cluster", CLUSTER), Map
			.of("class", connectorClass, "tasksMax", 1, "config", config, "autoRestart", Map.of("enabled", true)));
	}

	@Override
	public List<String> slotKeeperSettings(String property) {
		return List.of("--" + property + ".strimzi.namespace=" + NAMESPACE,
				"--" + property + ".strimzi.name=" + RealKafkaConnect.NAME,
				"--slotkeeper.strimzi.api-server=" + this.api.url(),
				"--slotkeeper.strimzi.service-account-token-file=" + this.tokenFile);
	}

	/**
	 * The Kubernetes API stand-in.
	 * @return it
	 */
	public StrimziResources api() {
		return this.api;
	}

	/**
	 * The file slot-keeper reads the service-account token from.
	 * @return its path
	 */
	public Path tokenFile() {
		return this.tokenFile;
	}

	/**
	 * The user's {@code spec.state} on the resource, merge-patched through the API as
	 * {@code kubectl patch} does; the operator emulation brings the connector there.
	 * @param state {@code stopped}, {@code paused} or {@code running}
	 */
	public void userState(String state) {
		try {
			new KubernetesClient(this.api.url(), TOKEN).patch(
					"/apis/kafka.strimzi.io/v1/namespaces/" + NAMESPACE + "/kafkaconnectors/" + RealKafkaConnect.NAME,
					Map.of("spec", Map.of("state", state)));
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

	/**
	 * The operator emulation.
	 * @return it
	 */
	public StrimziOperator operator() {
		return this.operator;
	}

	@Override
	public String url() {
		return this.connect.url();
	}

	@Override
	public String prefix() {
		return this.connect.prefix();
	}

	@Override
	public String state() {
		return this.connect.state();
	}

	@Override
	public void crash() {
		this.connect.crash();
	}

	@Override
	public void restart() {
		this.connect.restart();
	}

	@Override
	public void workerDown() {
		this.connect.workerDown();
	}

	@Override
	public void workerUp() {
		this.connect.workerUp();
	}

	@Override
	public Map<Long, Integer> deliveries() {
		return this.connect.deliveries();
	}

	/**
	 * The ids of {@code public.orders} whose delete events the topic delivered.
	 * @return the ids
	 */
	public java.util.Set<Long> deleted() {
		return this.connect.deleted();
	}

	/**
	 * Whether a row's last event downstream left it alive.
	 * @param id the row's id
	 * @return {@code true} after a create, update or read, {@code false} after a delete,
	 * {@code null} before any
	 */
	public Boolean alive(long id) {
		return this.connect.alive(id);
	}

	@Override
	public Long arrivedAt(long id) {
		return this.connect.arrivedAt(id);
	}

	@Override
	public long events() {
		return this.connect.events();
	}

	@Override
	public void close() {
		this.operator.close();
		this.api.close();
		this.connect.close();
	}

}
