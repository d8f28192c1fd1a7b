package io.slotkeeper.connect;

import java.net.http.HttpClient;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.http.HttpHeaders;
import org.springframework.http.ResponseEntity;
import org.springframework.http.client.JdkClientHttpRequestFactory;
import org.springframework.web.client.RestClient;
import org.springframework.web.client.RestClientException;
import org.springframework.web.client.RestClientResponseException;

import io.slotkeeper.config.ConnectorProperties;

/**
 * Calls Kafka Connect's REST API: {@code POST /connectors/{name}/restart?includeTasks=true&onlyFailed=true}, retrying
 * a 409 (the cluster is rebalancing) a few times, and {@code GET /connectors/{name}/status}. Every call is bounded by
 * the connector's timeout; the basic-auth password is sent, never logged.
 */
public class ConnectorClient {

	private static final Logger logger = LoggerFactory.getLogger(ConnectorClient.class);

	private static final int ATTEMPTS = 4;

	private final RestClient.Builder builder;

	private final Duration rebalanceRetryDelay;

	// One HTTP client per connector: each JDK client keeps a selector thread, so they are made once, not per call.
	private final Map<ConnectorProperties, RestClient> clients = new ConcurrentHashMap<>();

	/**
	 * Creates the client.
	 * @param builder Spring's client builder
	 * @param rebalanceRetryDelay the pause before retrying a 409, doubled at each retry
	 */
	public ConnectorClient(RestClient.Builder builder, Duration rebalanceRetryDelay) {
		this.builder = builder;
		this.rebalanceRetryDelay = rebalanceRetryDelay;
	}

	/**
	 * Restarts the connector and its failed tasks.
	 * @param connector the connector
	 * @return the outcome; failures are reported, never thrown
	 */
	public ConnectorOutcome restart(ConnectorProperties connector) {
		RestClient client = client(connector);
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
				detail = "Kafka Connect answered " + status + ": " + firstLine(ex.getResponseBodyAsString());
				if (status != 409 || attempt == ATTEMPTS) {
					return failed(connector, status, attempt, detail);
				}
			}
			catch (RestClientException ex) {
				return failed(connector, null, attempt, "Kafka Connect could not be reached: " + firstLine(ex.getMessage()));
			}
			if (!pause(delay)) {
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

	/**
	 * Reads the connector's status.
	 * @param connector the connector
	 * @return the status; failures are reported in it, never thrown
	 */
	@SuppressWarnings("unchecked")
	public ConnectorStatus status(ConnectorProperties connector) {
		try {
			Map<String, Object> body = client(connector).get()
				.uri("/connectors/{name}/status", connector.name())
				.retrieve()
				.body(Map.class);
			Map<String, Object> state = (body != null) ? (Map<String, Object>) body.get("connector") : null;
			List<ConnectorStatus.Task> tasks = new ArrayList<>();
			Object taskList = (body != null) ? body.get("tasks") : null;
			if (taskList instanceof List<?> list) {
				for (Object each : list) {
					Map<String, Object> task = (Map<String, Object>) each;
					tasks.add(new ConnectorStatus.Task(((Number) task.getOrDefault("id", -1)).intValue(),
							(String) task.get("state"), TaskTraces.summary((String) task.get("trace"))));
				}
			}
			return new ConnectorStatus(connector.name(), (state != null) ? (String) state.get("state") : null, tasks,
					null, Instant.now());
		}
		catch (RestClientResponseException ex) {
			return new ConnectorStatus(connector.name(), null, List.of(), "Kafka Connect answered "
					+ ex.getStatusCode().value() + ": " + firstLine(ex.getResponseBodyAsString()), Instant.now());
		}
		catch (RestClientException | ClassCastException ex) {
			return new ConnectorStatus(connector.name(), null, List.of(),
					"Kafka Connect could not be read: " + firstLine(ex.getMessage()), Instant.now());
		}
	}

	RestClient client(ConnectorProperties connector) {
		return this.clients.computeIfAbsent(connector, this::newClient);
	}

	private RestClient newClient(ConnectorProperties connector) {
		HttpClient http = HttpClient.newBuilder().connectTimeout(connector.timeout()).build();
		JdkClientHttpRequestFactory factory = new JdkClientHttpRequestFactory(http);
		factory.setReadTimeout(connector.timeout());
		return this.builder.clone().baseUrl(connector.url()).requestFactory(factory).defaultHeaders((headers) -> {
			if (connector.username() != null && connector.password() != null) {
				headers.setBasicAuth(connector.username(), connector.password().reveal());
			}
			headers.set(HttpHeaders.ACCEPT, "application/json");
		}).build();
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
