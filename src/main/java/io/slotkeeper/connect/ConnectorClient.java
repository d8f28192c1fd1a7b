package io.slotkeeper.connect;

import java.time.Clock;
import java.time.Duration;

import org.springframework.web.client.RestClient;

import io.slotkeeper.config.ConnectorProperties;
import io.slotkeeper.support.FirstLines;

/**
 * Reaches a slot's connector the way it is configured: through Kafka Connect's REST API,
 * or through its Strimzi {@code KafkaConnector} resource ({@code connector.strimzi}).
 * Callers ask for a restart or the status without knowing which;
 * {@link ConnectorLifecycle} does the same for the offsets calls.
 */
public class ConnectorClient {

	private final ConnectorApi rest;

	private final ConnectorApi strimzi;

	/**
	 * Creates a client for connectors reached through the REST API only.
	 * @param builder Spring's client builder
	 * @param rebalanceRetryDelay the pause before retrying a 409, doubled at each retry
	 * @param clock when statuses are read
	 */
	public ConnectorClient(RestClient.Builder builder, Duration rebalanceRetryDelay, Clock clock) {
		this(new RestConnectorApi(builder, rebalanceRetryDelay, clock), null);
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

	/**
	 * Reads the connector's configuration: Kafka Connect's {@code GET …/config}, or the
	 * resource's {@code spec.config}.
	 * @param connector the connector
	 * @return the settings, each value as text, when they were read; failures are
	 * reported in the answer
	 */
	public ConnectorLifecycle.Answer config(ConnectorProperties connector) {
		return api(connector).config(connector);
	}

	/**
	 * The state the connector's user chose for it, read fresh: Kafka Connect's state, or
	 * the resource's {@code spec.state}.
	 * @param connector the connector
	 * @return the choice, {@code null} when it could not be read
	 */
	public ChosenState chosenState(ConnectorProperties connector) {
		return api(connector).chosenState(connector);
	}

	Integer autoRestarts(ConnectorProperties connector) {
		return api(connector).autoRestarts(connector);
	}

	ConnectorStatus freshStatus(ConnectorProperties connector) {
		return api(connector).freshStatus(connector);
	}

	void settled(ConnectorProperties connector) {
		api(connector).settled(connector);
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

	/**
	 * What a failed call failed with, in one line: the exception's message, where that
	 * message ends in the {@code ": null"} of a cause without one (an {@code IOException}
	 * such as a reset connection), the cause's kind and whatever a deeper cause says
	 * instead.
	 * @param failure what the call threw
	 * @return the line
	 */
	static String failure(Throwable failure) {
		String message = FirstLines.of(failure.getMessage());
		if (!message.isEmpty() && !message.endsWith(": null")) {
			return message;
		}
		Throwable root = failure;
		while (root.getCause() != null && root.getCause() != root) {
			root = root.getCause();
		}
		String said = (root.getMessage() != null && !root.getMessage().isBlank())
				? root.getClass().getSimpleName() + ": " + FirstLines.of(root.getMessage())
				: root.getClass().getSimpleName() + " (no message)";
		String head = message.isEmpty() ? failure.getClass().getSimpleName()
				: message.substring(0, message.length() - ": null".length());
		return head + ": " + said;
	}

}
