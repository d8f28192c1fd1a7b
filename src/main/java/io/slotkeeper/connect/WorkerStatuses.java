package io.slotkeeper.connect;

import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Pattern;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.slotkeeper.config.ConnectorProperties;

/**
 * Kafka Connect's own status of a connector that Strimzi manages
 * ({@code slotkeeper.strimzi.status-from: worker}): {@code GET /connectors/{name}/status}
 * at the REST address in {@code status.url} of the {@code KafkaConnect} that the
 * {@code KafkaConnector}'s {@code strimzi.io/cluster} label names. Read only: a change
 * through REST would be reverted by the operator, a read is not. Only an http or https
 * address is called; it is kept for 10 minutes while it answers. When the address or the
 * worker cannot be read, the caller falls back to the resource's status; a read that
 * failed slowly (a NetworkPolicy that drops the packets, a worker that hangs) is not
 * tried again for a minute, so that it costs one timeout a minute rather than one a poll.
 * A cluster that cannot be read is said once in a WARN line, and once more when it is
 * read again.
 */
final class WorkerStatuses {

	private static final Logger logger = LoggerFactory.getLogger(WorkerStatuses.class);

	static final String CLUSTER_LABEL = "strimzi.io/cluster";

	// Only a plain http(s) base URL is called: the address comes from a resource, not
	// from slot-keeper's own settings.
	private static final Pattern HTTP = Pattern.compile("^https?://[^\\s?#@]+$");

	private static final long ADDRESS_KEPT_NANOS = Duration.ofMinutes(10).toNanos();

	private static final long RETRY_AFTER_SLOW_NANOS = Duration.ofMinutes(1).toNanos();

	private static final long SLOW_NANOS = Duration.ofSeconds(1).toNanos();

	private final KafkaConnectorResources resources;

	private final ConnectorApi worker;

	private final Duration timeout;

	private final Map<String, Cluster> clusters = new ConcurrentHashMap<>();

	WorkerStatuses(KafkaConnectorResources resources, ConnectorApi worker, Duration timeout) {
		this.resources = resources;
		this.worker = worker;
		this.timeout = timeout;
	}

	/**
	 * The worker's status of the connector.
	 * @param connector the connector
	 * @param resource its {@code KafkaConnector} as just read
	 * @return the status, empty when it could not be read from the worker
	 */
	Optional<ConnectorStatus> read(ConnectorProperties connector, KafkaConnectorResource resource) {
		String namespace = connector.strimzi().namespace();
		Object name = resource.labels().get(CLUSTER_LABEL);
		if (name == null) {
			// Each unlabelled connector on its own: under one "<namespace>/null" only the
			// first was ever named.
			String described = StrimziConnectorApi.describe(connector);
			failed(described, described, described + " has no " + CLUSTER_LABEL + " label", 0);
			return Optional.empty();
		}
		String key = namespace + "/" + name;
		long started = System.nanoTime();
		Cluster cluster = this.clusters.get(key);
		if (cluster != null && cluster.resting(started)) {
			return Optional.empty();
		}
		String url = (cluster != null && cluster.addressFresh(started)) ? cluster.url()
				: address(namespace, key, name.toString(), started);
		if (url == null) {
			return Optional.empty();
		}
		ConnectorStatus status = this.worker.status(new ConnectorProperties(url, connector.name(), null, null,
				this.timeout, connector.offsets(), connector.runningTimeout(), null));
		if (status.error() != null) {
			failed(key, "KafkaConnect " + key, "Kafka Connect at " + url + ": " + status.error(),
					System.nanoTime() - started);
			return Optional.empty();
		}
		Cluster known = this.clusters.get(key);
		this.clusters.put(key, new Cluster(url, known.addressReadAt(), null, 0));
		if (known.failure() != null) {
			logger.info("The Kafka Connect worker of KafkaConnect {} is read again for connector states", key);
		}
		return Optional.of(status);
	}

	private String address(String namespace, String key, String name, long started) {
		KafkaConnectorResources.Reply connect = this.resources.kafkaConnect(namespace, name);
		String url = KafkaConnectResource.of(connect.object()).url();
		if (!connect.ok() || url == null || !HTTP.matcher(url).matches()) {
			String why = !connect.ok() ? connect.error()
					: (url == null) ? "KafkaConnect " + key + " has no status.url yet"
							: "KafkaConnect " + key + "'s status.url is not an http or https URL";
			failed(key, "KafkaConnect " + key, why, System.nanoTime() - started);
			return null;
		}
		this.clusters.compute(key, (k, known) -> new Cluster(url, started, (known != null) ? known.failure() : null,
				(known != null) ? known.failedAt() : 0));
		return url;
	}

	private void failed(String key, String subject, String why, long tookNanos) {
		long now = System.nanoTime();
		Cluster before = this.clusters.get(key);
		// A slow failure rests the cluster for a minute; a quick one (refused, 404) costs
		// nothing to try again.
		// The address is read again at the next try: the KafkaConnect may have been
		// replaced by one of another name.
		this.clusters.put(key,
				new Cluster(null, 0, why, (tookNanos > SLOW_NANOS) ? now : now - RETRY_AFTER_SLOW_NANOS));
		if (before == null || before.failure() == null) {
			logger.warn("Connector states of {} are read from their KafkaConnector resources, as fresh as the"
					+ " operator's last reconcile, until a worker can be read: {}", subject, why);
		}
	}

	private record Cluster(String url, long addressReadAt, String failure, long failedAt) {

		boolean resting(long now) {
			return this.failure != null && now - this.failedAt < RETRY_AFTER_SLOW_NANOS;
		}

		boolean addressFresh(long now) {
			return this.url != null && now - this.addressReadAt < ADDRESS_KEPT_NANOS;
		}

	}

}
