package io.slotkeeper.connect;

import java.time.Duration;

import org.springframework.web.client.RestClient;

import io.slotkeeper.config.ConnectorProperties;

/**
 * Reaches a slot's connector the way it is configured: through Kafka Connect's REST API, or through its Strimzi
 * {@code KafkaConnector} resource ({@code connector.strimzi}). Callers ask for a restart or the status without
 * knowing which; {@link ConnectorLifecycle} does the same for the offsets calls.
 */
public class ConnectorClient {

	private final ConnectorApi rest;

	private final ConnectorApi strimzi;

	/**
	 * Creates a client for connectors reached through the REST API only.
	 * @param builder Spring's client builder
	 * @param rebalanceRetryDelay the pause before retrying a 409, doubled at each retry
	 */
	public ConnectorClient(RestClient.Builder builder, Duration rebalanceRetryDelay) {
		this(new RestConnectorApi(builder, rebalanceRetryDelay), null);
	}

	ConnectorClient(ConnectorApi rest, ConnectorApi strimzi) {
		this.rest = rest;
		this.strimzi = strimzi;
	}

	/**
	 * Restarts the connector and its failed tasks.
	 * @param connector the connector
	 * @return the outcome; failures are reported, never thrown
	 */
	public ConnectorOutcome restart(ConnectorProperties connector) {
		return api(connector).restart(connector);
	}

	/**
	 * Reads the connector's status.
	 * @param connector the connector
	 * @return the status; failures are reported in it, never thrown
	 */
	public ConnectorStatus status(ConnectorProperties connector) {
		return api(connector).status(connector);
	}

	ConnectorStatus freshStatus(ConnectorProperties connector) {
		return api(connector).freshStatus(connector);
	}

	ConnectorApi api(ConnectorProperties connector) {
		if (!connector.managedByStrimzi()) {
			return this.rest;
		}
		if (this.strimzi == null) {
			throw new IllegalStateException("connector " + connector.name() + " is managed by Strimzi, and this client"
					+ " reaches Kafka Connect's REST API only");
		}
		return this.strimzi;
	}

	static boolean pause(Duration delay) {
		try {
			Thread.sleep(delay.toMillis());
			return true;
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			return false;
		}
	}

	static String firstLine(String text) {
		if (text == null || text.isBlank()) {
			return "";
		}
		int newline = text.indexOf('\n');
		String line = (newline < 0) ? text : text.substring(0, newline);
		return (line.length() > 300) ? line.substring(0, 300) + "…" : line.strip();
	}

}
