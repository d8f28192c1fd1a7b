package io.slotkeeper.connect;

import java.util.List;
import java.util.Map;

import io.slotkeeper.config.ConnectorProperties;

/**
 * A connector's calls around its offsets (KIP-875, Kafka Connect 3.6+): stop, read, alter
 * or delete its offsets while it is stopped, resume; and its configuration; each through
 * the REST API or the connector's Strimzi resource, as it is configured. Each answers
 * what happened, never throws.
 */
public final class ConnectorLifecycle {

	private final ConnectorClient connectors;

	/**
	 * Creates the calls on the client's ways of reaching connectors.
	 * @param connectors the connector client
	 */
	public ConnectorLifecycle(ConnectorClient connectors) {
		this.connectors = connectors;
	}

	/**
	 * Whether slot-keeper's Debezium extension is installed where the connector runs.
	 * @param connector the connector
	 * @return what could be told
	 */
	public ExtensionCheck extension(ConnectorProperties connector) {
		return this.connectors.api(connector).extension(connector);
	}

	/**
	 * Stops the connector (its tasks let go of the slot).
	 * @param connector the connector
	 * @return what was answered
	 */
	public Answer stop(ConnectorProperties connector) {
		return this.connectors.api(connector).stop(connector);
	}

	/**
	 * The Strimzi operator's restart count of the connector.
	 * @param connector the connector
	 * @return the count, {@code null} where it has no operator or it was not read
	 */
	public Integer autoRestarts(ConnectorProperties connector) {
		return this.connectors.autoRestarts(connector);
	}

	/**
	 * The state the connector's user chose for it.
	 * @param connector the connector
	 * @return the choice, {@code null} when it could not be read
	 */
	public ChosenState chosenState(ConnectorProperties connector) {
		return this.connectors.chosenState(connector);
	}

	/**
	 * Puts the connector into the state its user chose.
	 * @param connector the connector
	 * @param chosen the state
	 * @return what was answered
	 */
	public Answer restore(ConnectorProperties connector, ChosenState chosen) {
		return this.connectors.api(connector).restore(connector, chosen);
	}

	/**
	 * Lists the connector's stored offsets.
	 * @param connector the connector
	 * @return what was answered: the offsets as its body when they were listed
	 */
	public Answer offsets(ConnectorProperties connector) {
		return this.connectors.api(connector).offsets(connector);
	}

	/**
	 * The connector's offsets as they can be read without changing anything: as Kafka
	 * Connect stores them, or, for a Strimzi-managed connector, as slot-keeper last
	 * listed or set them.
	 * @param connector the connector
	 * @return the entries ({@code partition}, {@code offset}), {@code null} when they
	 * were not read
	 */
	public List<Map<String, Object>> lastKnownOffsets(ConnectorProperties connector) {
		Answer answer = this.connectors.api(connector).lastKnownOffsets(connector);
		return answer.ok() ? entries(answer.body()) : null;
	}

	/**
	 * The connector's offsets listed again now: what Kafka Connect holds (through a
	 * Strimzi resource, a list the operator makes) rather than what slot-keeper asked
	 * for; what can be read without a list when the list fails.
	 * @param connector the connector
	 * @return the entries, {@code null} when they could not be read
	 */
	public List<Map<String, Object>> listedOffsets(ConnectorProperties connector) {
		Answer listed = offsets(connector);
		List<Map<String, Object>> entries = listed.ok() ? entries(listed.body()) : null;
		return (entries != null) ? entries : lastKnownOffsets(connector);
	}

	/**
	 * Sets the stopped connector's offsets.
	 * @param connector the connector
	 * @param offsets the request body ({@code offsets}: partition and offset entries)
	 * @return what was answered
	 */
	public Answer alterOffsets(ConnectorProperties connector, Map<String, Object> offsets) {
		return this.connectors.api(connector).alterOffsets(connector, offsets);
	}

	/**
	 * Deletes the stopped connector's offsets.
	 * @param connector the connector
	 * @return what was answered
	 */
	public Answer resetOffsets(ConnectorProperties connector) {
		return this.connectors.api(connector).resetOffsets(connector);
	}

	/**
	 * The connector's configuration.
	 * @param connector the connector
	 * @return what was answered: the configuration as a JSON object when it was read
	 */
	public Answer config(ConnectorProperties connector) {
		return this.connectors.api(connector).config(connector);
	}

	/**
	 * The entries of an offsets listing.
	 * @param offsetsBody the listing's body
	 * @return its {@code partition} and {@code offset} entries, {@code null} when it has
	 * none
	 */
	@SuppressWarnings("unchecked")
	public static List<Map<String, Object>> entries(Object offsetsBody) {
		Object list = JsonObjects.asMap(offsetsBody).get("offsets");
		return (list instanceof List<?> entries) ? entries.stream().map(JsonObjects::asMap).toList() : null;
	}

	/**
	 * What one call came to.
	 *
	 * @param status the HTTP status, {@code null} when the connector could not be reached
	 * @param body the JSON body, {@code null} when none
	 * @param error what went wrong, {@code null} on success
	 * @param unreachable whether the call never reached the connector: Kafka Connect or
	 * the Kubernetes API refused, timed out or had no such host, or Kafka Connect does
	 * not know the connector (yet)
	 */
	public record Answer(Integer status, Object body, String error, boolean unreachable) {

		/**
		 * An answer that reached the connector's API.
		 * @param status the HTTP status
		 * @param body the JSON body
		 * @param error what went wrong, {@code null} on success
		 */
		public Answer(Integer status, Object body, String error) {
			this(status, body, error, false);
		}

		/**
		 * A call that never reached the connector.
		 * @param error why
		 * @return the answer
		 */
		static Answer unreachable(String error) {
			return new Answer(null, null, error, true);
		}

		/**
		 * Whether the call was accepted.
		 * @return whether it succeeded
		 */
		public boolean ok() {
			return this.error == null;
		}

		/**
		 * The body as a JSON object.
		 * @return its members, empty when the body is none or not an object
		 */
		public Map<String, Object> object() {
			return JsonObjects.asMap(this.body);
		}

	}

}
