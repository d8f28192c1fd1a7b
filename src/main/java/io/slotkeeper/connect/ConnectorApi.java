package io.slotkeeper.connect;

import java.util.Map;

import io.slotkeeper.config.ConnectorProperties;
import io.slotkeeper.connect.ConnectorLifecycle.Answer;

/**
 * Where a connector is read and changed: Kafka Connect's REST API
 * ({@link RestConnectorApi}) or the Strimzi operator's {@code KafkaConnector} resource
 * ({@link StrimziConnectorApi}). The handover, the re-snapshot and the checks are written
 * once against this; each call answers what happened, never throws.
 */
interface ConnectorApi {

	/**
	 * The connector's status as Kafka Connect reports it.
	 * @param connector the connector
	 * @return the status; a failure to read it is in its error
	 */
	ConnectorStatus status(ConnectorProperties connector);

	/**
	 * The connector's status while a change to it is awaited: as {@link #status}, but
	 * where the status is only as fresh as the last look of someone else (Strimzi's
	 * operator, every 2 minutes), asking for a new look first.
	 * @param connector the connector
	 * @return the status; a failure to read it is in its error
	 */
	default ConnectorStatus freshStatus(ConnectorProperties connector) {
		return status(connector);
	}

	/**
	 * Says that a wait with {@link #freshStatus} is over: whatever it asked of someone
	 * else to look again is taken back (Strimzi: slot-keeper's annotation on the
	 * resource).
	 * @param connector the connector
	 */
	default void settled(ConnectorProperties connector) {
	}

	/**
	 * Restarts the connector and its failed tasks.
	 * @param connector the connector
	 * @return the outcome; a status of {@code null} means the connector could not be
	 * reached
	 */
	ConnectorOutcome restart(ConnectorProperties connector);

	/**
	 * Whether slot-keeper's Debezium extension is installed where the connector runs.
	 * @param connector the connector
	 * @return what could be told
	 */
	default ExtensionCheck extension(ConnectorProperties connector) {
		return ExtensionCheck.unknown("this way of reaching the connector cannot tell");
	}

	/**
	 * How many times something else restarted the connector on its own: the Strimzi
	 * operator's {@code status.autoRestart.count}.
	 * @param connector the connector
	 * @return the count (0 when the resource has none), {@code null} when the connector
	 * has no such thing or it could not be read
	 */
	default Integer autoRestarts(ConnectorProperties connector) {
		return null;
	}

	/**
	 * The connector's configuration.
	 * @param connector the connector
	 * @return the configuration as a JSON object when it was read
	 */
	Answer config(ConnectorProperties connector);

	/**
	 * The connector's stored offsets, as {@code GET /connectors/{name}/offsets} lists
	 * them, asked of Kafka Connect now (through a Strimzi resource: a list the operator
	 * makes).
	 * @param connector the connector
	 * @return {@code {"offsets": [...]}} when they were read
	 */
	Answer offsets(ConnectorProperties connector);

	/**
	 * The connector's offsets as they can be read without changing anything, for a
	 * listing: what Kafka Connect stores, or what slot-keeper last listed or set through
	 * a Strimzi resource.
	 * @param connector the connector
	 * @return {@code {"offsets": [...]}} when they could be read
	 */
	Answer lastKnownOffsets(ConnectorProperties connector);

	/**
	 * Stops the connector (KIP-875), so that its offsets can be changed.
	 * @param connector the connector
	 * @return whether it was asked to
	 */
	Answer stop(ConnectorProperties connector);

	/**
	 * The state the connector's user chose for it, read before a handover stops it.
	 * @param connector the connector
	 * @return the choice, {@code null} when it could not be read
	 */
	ChosenState chosenState(ConnectorProperties connector);

	/**
	 * Puts the connector back into the state its user chose after a stop: resumed when it
	 * was running, paused when it was paused, left stopped when it was stopped.
	 * @param connector the connector
	 * @param chosen the state its user chose, as {@link #chosenState} read it before the
	 * stop
	 * @return whether it was asked to
	 */
	Answer restore(ConnectorProperties connector, ChosenState chosen);

	/**
	 * Sets the stopped connector's offsets.
	 * @param connector the connector
	 * @param offsets the body of Kafka Connect's {@code PATCH …/offsets}
	 * @return whether they were set
	 */
	Answer alterOffsets(ConnectorProperties connector, Map<String, Object> offsets);

	/**
	 * Deletes the stopped connector's offsets.
	 * @param connector the connector
	 * @return whether they were deleted
	 */
	Answer resetOffsets(ConnectorProperties connector);

}
