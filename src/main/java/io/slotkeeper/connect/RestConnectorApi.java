package io.slotkeeper.connect;

import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.http.ResponseEntity;
import org.springframework.web.client.RestClient;
import org.springframework.web.client.RestClientException;
import org.springframework.web.client.RestClientResponseException;

import io.slotkeeper.config.ConnectorProperties;
import io.slotkeeper.connect.ConnectorLifecycle.Answer;
import io.slotkeeper.support.FirstLines;

/**
 * Kafka Connect's REST API: {@code POST
 * /connectors/{name}/restart?includeTasks=true&onlyFailed=true}, retrying a 409 (the
 * cluster is rebalancing) a few times, {@code GET …/status}, {@code …/config}, and the
 * offsets calls of KIP-875. Every call is bounded by the connector's timeout; the
 * basic-auth password is sent, never logged. A worker that is starting counts as not
 * reached: it refuses connections, then answers every path with Jetty's 404 error page
 * (JSON {@code {"message":"Not Found","url":…,"status":"404"}} when JSON is asked for)
 * until its REST resources are up (≈2 s), and 404 "Connector … not found" / "No status
 * found for connector …" for a connector it has not read yet; the connector is back
 * within seconds. Only Connect's JSON 404 of a route it does not have (before 3.6: no
 * offsets API) is an answer.
 */
final class RestConnectorApi implements ConnectorApi {

	private static final Logger logger = LoggerFactory.getLogger(RestConnectorApi.class);

	private static final int ATTEMPTS = 4;

	private static final String UNREACHABLE = "Kafka Connect could not be reached: ";

	private final Duration rebalanceRetryDelay;

	private final ConnectClients clients;

	private final Clock clock;

	RestConnectorApi(RestClient.Builder builder, Duration rebalanceRetryDelay, Clock clock) {
		this.clock = clock;
		this.clients = new ConnectClients(builder);
		this.rebalanceRetryDelay = rebalanceRetryDelay;
	}

	@Override
	public ConnectorOutcome restart(ConnectorProperties connector) {
		RestClient client = this.clients.of(connector);
		Duration delay = this.rebalanceRetryDelay;
		Integer status = null;
		String detail = null;
		for (int attempt = 1; attempt <= ATTEMPTS; attempt++) {
			try {
				ResponseEntity<Void> response = client.post()
					.uri("/connectors/{name}/restart?includeTasks=true&onlyFailed=true", connector.name())
					.retrieve()
					.toBodilessEntity();
				return new ConnectorOutcome(connector.name(), true, response.getStatusCode().value(), attempt, null);
			}
			catch (RestClientResponseException ex) {
				status = ex.getStatusCode().value();
				detail = "Kafka Connect answered " + status + ": " + body(ex);
				if (notReadyYet(ex)) {
					return failed(connector, null, attempt, detail);
				}
				if (status != 409 || attempt == ATTEMPTS) {
					return failed(connector, status, attempt, detail);
				}
			}
			catch (RestClientException ex) {
				return failed(connector, null, attempt, UNREACHABLE + ConnectorClient.failure(ex));
			}
			if (!ConnectorClient.pause(delay)) {
				return failed(connector, status, attempt, "interrupted while waiting for a rebalance to end");
			}
			delay = delay.multipliedBy(2);
		}
		return failed(connector, status, ATTEMPTS, detail);
	}

	private static ConnectorOutcome failed(ConnectorProperties connector, Integer status, int attempts, String detail) {
		logger.warn("Restart of connector '{}' failed after {} attempt(s): {}", connector.name(), attempts, detail);
		return new ConnectorOutcome(connector.name(), false, status, attempts, detail);
	}

	@Override
	public ConnectorStatus status(ConnectorProperties connector) {
		Answer answer = call(connector, (client) -> client.get().uri("/connectors/{name}/status", connector.name()));
		if (!answer.ok()) {
			return new ConnectorStatus(connector.name(), null, List.of(), answer.error(), this.clock.instant());
		}
		return ConnectorStatus.of(connector.name(), answer.object(), this.clock.instant());
	}

	@Override
	public ExtensionCheck extension(ConnectorProperties connector) {
		Answer plugins = call(connector,
				(client) -> client.get().uri("/connector-plugins?connectorsOnly={only}", "false"));
		if (!plugins.ok()) {
			return ExtensionCheck.unknown("the worker's plugins could not be listed: " + plugins.error());
		}
		return ((plugins.body() instanceof List<?> list) ? list : List.of()).stream()
			.map(JsonObjects::asMap)
			.filter((plugin) -> ExtensionCheck.MARKER.equals(plugin.get("class")))
			.findFirst()
			.map((plugin) -> new ExtensionCheck(true,
					"listed by the worker's plugins, version " + plugin.get("version")))
			.orElseGet(() -> new ExtensionCheck(false, "not among the plugins of its Kafka Connect worker"));
	}

	@Override
	public Answer stop(ConnectorProperties connector) {
		return call(connector, (client) -> client.put().uri("/connectors/{name}/stop", connector.name()));
	}

	@Override
	public ChosenState chosenState(ConnectorProperties connector) {
		ConnectorStatus status = status(connector);
		return (status.error() != null) ? null : ChosenState.ofConnect(status.state());
	}

	@Override
	public Answer restore(ConnectorProperties connector, ChosenState chosen) {
		return switch (chosen) {
			case RUNNING ->
				call(connector, (client) -> client.put().uri("/connectors/{name}/resume", connector.name()));
			case PAUSED -> call(connector, (client) -> client.put().uri("/connectors/{name}/pause", connector.name()));
			case STOPPED -> new Answer(204, null, null);
		};
	}

	@Override
	public Answer offsets(ConnectorProperties connector) {
		return call(connector, (client) -> client.get().uri("/connectors/{name}/offsets", connector.name()));
	}

	@Override
	public Answer lastKnownOffsets(ConnectorProperties connector) {
		return offsets(connector);
	}

	@Override
	public Answer alterOffsets(ConnectorProperties connector, Map<String, Object> offsets) {
		return call(connector,
				(client) -> client.patch().uri("/connectors/{name}/offsets", connector.name()).body(offsets));
	}

	@Override
	public Answer resetOffsets(ConnectorProperties connector) {
		return call(connector, (client) -> client.delete().uri("/connectors/{name}/offsets", connector.name()));
	}

	@Override
	public Answer config(ConnectorProperties connector) {
		return call(connector, (client) -> client.get().uri("/connectors/{name}/config", connector.name()));
	}

	private Answer call(ConnectorProperties connector, Function<RestClient, RestClient.RequestHeadersSpec<?>> request) {
		try {
			var response = request.apply(this.clients.of(connector)).retrieve().toEntity(Object.class);
			return new Answer(response.getStatusCode().value(), response.getBody(), null);
		}
		catch (RestClientResponseException ex) {
			String error = "Kafka Connect answered " + ex.getStatusCode().value() + ": " + body(ex);
			return notReadyYet(ex)
					? Answer.unreachable(error + " (Kafka Connect is starting or does not know the" + " connector yet)")
					: new Answer(ex.getStatusCode().value(), null, error);
		}
		catch (RestClientException ex) {
			return Answer.unreachable(UNREACHABLE + ConnectorClient.failure(ex));
		}
	}

	// Jetty pretty-prints its JSON error page over several lines: one line of it says
	// more than its first.
	static String body(RestClientResponseException ex) {
		String body = ex.getResponseBodyAsString().strip();
		return FirstLines.of(body.startsWith("{") ? body.replaceAll("\\s*\\R\\s*", " ") : body);
	}

	// A starting worker's answers — Jetty's own error page (HTML, or JSON without
	// Connect's error_code when JSON is
	// asked for), then Connect's "not found" for a connector it has not read yet — as
	// opposed to Connect's JSON 404 of
	// a route an old Connect does not have.
	private static boolean notReadyYet(RestClientResponseException ex) {
		String body = ex.getResponseBodyAsString();
		return ex.getStatusCode().value() == 404
				&& (!body.contains("\"error_code\"") || body.contains("No status found for connector")
						|| (body.contains("Connector ") && body.contains(" not found")));
	}

	/**
	 * How many HTTP clients are kept: one per Kafka Connect cluster reached.
	 * @return the count
	 */
	int clients() {
		return this.clients.size();
	}

}
