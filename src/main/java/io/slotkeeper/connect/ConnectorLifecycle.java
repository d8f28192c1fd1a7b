package io.slotkeeper.connect;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

import org.springframework.web.client.RestClient;
import org.springframework.web.client.RestClientException;
import org.springframework.web.client.RestClientResponseException;

import io.slotkeeper.config.ConnectorProperties;

/**
 * Kafka Connect's calls around a connector's offsets (KIP-875, Kafka Connect 3.6+): stop, read, alter or delete its
 * offsets while it is stopped, resume; and its configuration. Each answers what Kafka Connect said, never throws.
 */
public final class ConnectorLifecycle {

	private static final String UNREACHABLE = "Kafka Connect could not be reached: ";

	private final ConnectorClient connectors;

	/**
	 * Creates the calls on the client's per-connector HTTP clients.
	 * @param connectors the Kafka Connect client
	 */
	public ConnectorLifecycle(ConnectorClient connectors) {
		this.connectors = connectors;
	}

	Answer stop(ConnectorProperties connector) {
		return call(connector, (client) -> client.put().uri("/connectors/{name}/stop", connector.name()));
	}

	Answer resume(ConnectorProperties connector) {
		return call(connector, (client) -> client.put().uri("/connectors/{name}/resume", connector.name()));
	}

	Answer offsets(ConnectorProperties connector) {
		return call(connector, (client) -> client.get().uri("/connectors/{name}/offsets", connector.name()));
	}

	/**
	 * The connector's stored offsets, as {@code GET /connectors/{name}/offsets} lists them.
	 * @param connector the connector
	 * @return the entries ({@code partition}, {@code offset}), {@code null} when Kafka Connect did not list them
	 */
	public List<Map<String, Object>> storedOffsets(ConnectorProperties connector) {
		Answer answer = offsets(connector);
		return answer.ok() ? entries(answer.body()) : null;
	}

	Answer alterOffsets(ConnectorProperties connector, Map<String, Object> offsets) {
		return call(connector, (client) -> client.patch().uri("/connectors/{name}/offsets", connector.name())
			.body(offsets));
	}

	Answer resetOffsets(ConnectorProperties connector) {
		return call(connector, (client) -> client.delete().uri("/connectors/{name}/offsets", connector.name()));
	}

	/**
	 * The connector's configuration.
	 * @param connector the connector
	 * @return what Kafka Connect answered: the configuration as a JSON object when it did
	 */
	public Answer config(ConnectorProperties connector) {
		return call(connector, (client) -> client.get().uri("/connectors/{name}/config", connector.name()));
	}

	@SuppressWarnings("unchecked")
	static Map<String, Object> asMap(Object json) {
		return (json instanceof Map<?, ?> map) ? new LinkedHashMap<>((Map<String, Object>) map) : Map.of();
	}

	@SuppressWarnings("unchecked")
	static List<Map<String, Object>> entries(Object offsetsBody) {
		Object list = asMap(offsetsBody).get("offsets");
		return (list instanceof List<?> entries) ? entries.stream().map(ConnectorLifecycle::asMap).toList() : null;
	}

	private Answer call(ConnectorProperties connector, Function<RestClient, RestClient.RequestHeadersSpec<?>> request) {
		try {
			var response = request.apply(this.connectors.client(connector)).retrieve().toEntity(Object.class);
			return new Answer(response.getStatusCode().value(), response.getBody(), null);
		}
		catch (RestClientResponseException ex) {
			return new Answer(ex.getStatusCode().value(), null, "Kafka Connect answered " + ex.getStatusCode().value()
					+ ": " + ConnectorClient.firstLine(ex.getResponseBodyAsString()));
		}
		catch (RestClientException ex) {
			return new Answer(null, null, UNREACHABLE + ConnectorClient.firstLine(ex.getMessage()));
		}
	}

	/**
	 * What Kafka Connect answered to one call.
	 * @param status the HTTP status, {@code null} when it could not be reached
	 * @param body the JSON body, {@code null} when none
	 * @param error what went wrong, {@code null} on a 2xx
	 */
	public record Answer(Integer status, Object body, String error) {

		/**
		 * Whether Kafka Connect accepted the call.
		 * @return whether it answered 2xx
		 */
		public boolean ok() {
			return this.error == null;
		}

		/**
		 * The body as a JSON object.
		 * @return its members, empty when the body is none or not an object
		 */
		public Map<String, Object> object() {
			return asMap(this.body);
		}

		/**
		 * Whether the call never reached Kafka Connect (refused, timed out, no such host).
		 * @return whether it failed without an answer
		 */
		public boolean unreachable() {
			return this.status == null && this.error != null && this.error.startsWith(UNREACHABLE);
		}

		// Connect before 3.6 has no such resource: its REST server answers 404 (no route) or 405 (wrong method).
		boolean unsupported() {
			return this.status != null && (this.status == 404 || this.status == 405);
		}

	}

}
