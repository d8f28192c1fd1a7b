package io.slotkeeper.testbed;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import tools.jackson.databind.json.JsonMapper;

import static io.slotkeeper.testbed.StrimziResources.asMap;
import static io.slotkeeper.testbed.StrimziResources.list;

/**
 * An emulation of the Strimzi cluster operator's {@code KafkaConnector} reconcile, with
 * the rules read in strimzi-kafka-operator's source ({@code AbstractConnectOperator}),
 * against a real Kafka Connect REST API. It reconciles a resource on every write to it
 * (the watch) and every {@code fullReconciliation} (Strimzi's
 * {@code STRIMZI_FULL_RECONCILIATION_INTERVAL_MS}, 120 s by default, shortened in tests),
 * one at a time. Like the operator, it reads and writes the resources through the
 * Kubernetes API (the stand-in's HTTP API, under a service account of its own), so that
 * the API's faults reach it too: a reconcile that cannot read the resource does nothing,
 * one that cannot write its status leaves the old one, and both wait for the next event
 * or full reconciliation. What it does:
 * <ol>
 * <li>the connector is driven to {@code spec.state} ({@code running} by default): a stop
 * or resume made through the REST API is reverted;</li>
 * <li>{@code strimzi.io/connector-offsets}: {@code list} writes {@code GET …/offsets} to
 * the ConfigMap {@code spec.listOffsets.toConfigMap.name} (key {@code offsets.json});
 * {@code alter} (from {@code spec.alterOffsets.fromConfigMap.name}) and {@code reset} act
 * only when the live connector is STOPPED; success removes the annotation, failure keeps
 * it and sets a Warning condition; an empty or unknown value fails the reconcile
 * (NotReady);</li>
 * <li>{@code strimzi.io/restart} and {@code strimzi.io/restart-task}, removed once
 * Connect accepted;</li>
 * <li>the status: {@code connectorStatus} is Connect's {@code GET …/status} verbatim,
 * Ready or NotReady ("The following tasks have failed: …"); a Connect that cannot be
 * reached makes it NotReady with the exception, without {@code connectorStatus};</li>
 * <li>{@code spec.autoRestart.enabled}: as Strimzi does, a FAILED connector or task of a
 * connector meant to run is restarted ({@code includeTasks&onlyFailed}) when n² + n
 * minutes passed since the last of its n restarts (at once the first time), counted in
 * {@code status.autoRestart {count, lastRestartTimestamp}}; the status is reset once
 * nothing failed for longer than that.</li>
 * </ol>
 */
public final class StrimziOperator implements AutoCloseable {

	private static final JsonMapper JSON = JsonMapper.builder().build();

	private static final Set<String> OFFSET_OPERATIONS = Set.of("list", "alter", "reset");

	private final StrimziResources resources;

	private final KubernetesClient api;

	private final String connectUrl;

	private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

	private final ScheduledExecutorService loop = Executors.newSingleThreadScheduledExecutor();

	private final AtomicInteger autoRestarts = new AtomicInteger();

	private final AtomicInteger reconciles = new AtomicInteger();

	private volatile Duration clockBehind = Duration.ZERO;

	private final Map<String, AutoRestart> lastAutoRestart = new java.util.concurrent.ConcurrentHashMap<>();

	/**
	 * Starts reconciling.
	 * @param resources the API server's stand-in whose {@code KafkaConnector}s it
	 * reconciles
	 * @param connectUrl the Kafka Connect REST API it drives
	 * @param fullReconciliation how often every resource is reconciled without an event
	 */
	public StrimziOperator(StrimziResources resources, String connectUrl, Duration fullReconciliation) {
		this.resources = resources;
		this.api = new KubernetesClient(resources.url(), StrimziResources.OPERATOR_TOKEN);
		this.connectUrl = connectUrl;
		resources.onWrite((key) -> this.loop.execute(() -> reconcile(key)));
		this.loop.scheduleWithFixedDelay(this::reconcileAll, fullReconciliation.toMillis(),
				fullReconciliation.toMillis(), TimeUnit.MILLISECONDS);
	}

	/**
	 * How many times it restarted a failed connector or task on its own
	 * ({@code autoRestart}).
	 * @return the count
	 */
	public int autoRestarts() {
		return this.autoRestarts.get();
	}

	/**
	 * How many reconciles it made.
	 * @return the count
	 */
	public int reconciles() {
		return this.reconciles.get();
	}

	// A listing the API does not answer is tried again at the next full reconciliation,
	// as Strimzi's periodic reconcile is.
	private void reconcileAll() {
		for (String namespace : this.resources.connectorNamespaces()) {
			try {
				for (Object item : list(this.api.get(connectors(namespace, null)).get("items"))) {
					reconcile(namespace + "/" + asMap(asMap(item).get("metadata")).get("name"));
				}
			}
			catch (IOException ex) {
				// the next full reconciliation
			}
		}
	}

	private void reconcile(String key) {
		this.reconciles.incrementAndGet();
		String name = key.substring(key.indexOf('/') + 1);
		String namespace = key.substring(0, key.indexOf('/'));
		Map<String, Object> resource;
		try {
			resource = this.api.get(connectors(namespace, name));
		}
		catch (IOException ex) {
			// The API does not answer: nothing is known to act on until the next event or
			// full reconciliation.
			return;
		}
		if (resource == null) {
			return;
		}
		Map<String, Object> spec = asMap(resource.get("spec"));
		Map<String, Object> annotations = asMap(asMap(resource.get("metadata")).get("annotations"));
		List<Map<String, Object>> warnings = new ArrayList<>();
		try {
			// spec.pause (deprecated, gone in Strimzi 1.1) counts where spec.state says
			// nothing.
			driveToState(name, String
				.valueOf(spec.getOrDefault("state", Boolean.TRUE.equals(spec.get("pause")) ? "paused" : "running")));
			Object offsets = annotations.get("strimzi.io/connector-offsets");
			if (offsets != null) {
				if (!OFFSET_OPERATIONS.contains(offsets.toString())) {
					throw new IllegalArgumentException(
							"Unknown value of the strimzi.io/connector-offsets annotation: '" + offsets + "'");
				}
				String failure = offsets(namespace, name, offsets.toString(), spec);
				if (failure == null) {
					removeAnnotation(key, "strimzi.io/connector-offsets");
				}
				else {
					warnings.add(condition("Warning", capitalized(offsets.toString()) + "Offsets", failure));
				}
			}
			restarts(key, name, annotations);
			Map<String, Object> status = call("GET", "/connectors/" + name + "/status", null).json();
			autoRestart(key, name, spec, status);
			List<Object> failed = list(status.get("tasks")).stream()
				.map(StrimziResources::asMap)
				.filter((task) -> "FAILED".equals(task.get("state")))
				.map((task) -> task.get("id"))
				.toList();
			List<Map<String, Object>> conditions = new ArrayList<>(
					List.of(failed.isEmpty() ? condition("Ready", null, null)
							: condition("NotReady", "Throwable", "The following tasks have" + " failed: "
									+ failed.stream().map(String::valueOf).reduce((a, b) -> a + ", " + b).orElse("")
									+ ", see connectorStatus for more details.")));
			conditions.addAll(warnings);
			setStatus(key, resource, conditions, status);
		}
		catch (IOException | RuntimeException ex) {
			try {
				setStatus(key, resource,
						List.of(condition("NotReady", ex.getClass().getSimpleName(), String.valueOf(ex.getMessage()))),
						null);
			}
			catch (IOException notWritten) {
				// the API does not answer: the status stays as it was until a reconcile
				// can write it
			}
		}
	}

	private void driveToState(String name, String target) throws IOException {
		Rest live = call("GET", "/connectors/" + name + "/status", null);
		String state = String.valueOf(asMap(live.json().get("connector")).get("state"));
		switch (target) {
			case "stopped" -> {
				if (!"STOPPED".equals(state)) {
					call("PUT", "/connectors/" + name + "/stop", null);
				}
			}
			case "paused" -> {
				if ("RUNNING".equals(state)) {
					call("PUT", "/connectors/" + name + "/pause", null);
				}
			}
			default -> {
				if ("STOPPED".equals(state) || "PAUSED".equals(state)) {
					call("PUT", "/connectors/" + name + "/resume", null);
				}
			}
		}
	}

	// null when done, else why not
	private String offsets(String namespace, String name, String operation, Map<String, Object> spec)
			throws IOException {
		if (operation.equals("list")) {
			Rest offsets = call("GET", "/connectors/" + name + "/offsets", null);
			String map = String.valueOf(asMap(asMap(spec.get("listOffsets")).get("toConfigMap")).get("name"));
			this.api.putConfigMap(namespace, map, Map.of("offsets.json", offsets.body()));
			return null;
		}
		String state = String
			.valueOf(asMap(call("GET", "/connectors/" + name + "/status", null).json().get("connector")).get("state"));
		if (!"STOPPED".equals(state)) {
			return "Connector " + name + " is not in the STOPPED state: its offsets can only be changed when stopped";
		}
		Rest changed;
		if (operation.equals("alter")) {
			String map = String.valueOf(asMap(asMap(spec.get("alterOffsets")).get("fromConfigMap")).get("name"));
			Object json = asMap(
					asMap(this.api.get("/api/v1/namespaces/" + namespace + "/configmaps/" + map)).get("data"))
				.get("offsets.json");
			if (json == null) {
				return "ConfigMap " + map + " has no offsets.json";
			}
			changed = call("PATCH", "/connectors/" + name + "/offsets", json.toString());
		}
		else {
			changed = call("DELETE", "/connectors/" + name + "/offsets", null);
		}
		return (changed.status() / 100 == 2) ? null : changed.body();
	}

	private void restarts(String key, String name, Map<String, Object> annotations) throws IOException {
		Object restart = annotations.get("strimzi.io/restart");
		if (restart != null) {
			String query = "true".equals(restart) ? "" : "?" + String.join("&",
					List.of(restart.toString().split(",")).stream().map((option) -> option.strip() + "=true").toList());
			if (call("POST", "/connectors/" + name + "/restart" + query, null).status() / 100 == 2) {
				removeAnnotation(key, "strimzi.io/restart");
			}
		}
		Object task = annotations.get("strimzi.io/restart-task");
		if (task != null
				&& call("POST", "/connectors/" + name + "/tasks/" + task + "/restart", null).status() / 100 == 2) {
			removeAnnotation(key, "strimzi.io/restart-task");
		}
	}

	private void autoRestart(String key, String name, Map<String, Object> spec, Map<String, Object> status)
			throws IOException {
		boolean enabled = Boolean.TRUE.equals(asMap(spec.get("autoRestart")).get("enabled"));
		boolean failed = "FAILED".equals(asMap(status.get("connector")).get("state"))
				|| list(status.get("tasks")).stream().anyMatch((task) -> "FAILED".equals(asMap(task).get("state")));
		AutoRestart last = this.lastAutoRestart.get(key);
		if (!enabled) {
			this.lastAutoRestart.remove(key);
			return;
		}
		if (!failed) {
			if (last != null && last.since().plus(last.backoff()).isBefore(Instant.now())) {
				this.lastAutoRestart.remove(key);
			}
			return;
		}
		if (last == null || !last.since().plus(last.backoff()).isAfter(Instant.now())) {
			call("POST", "/connectors/" + name + "/restart?includeTasks=true&onlyFailed=true", null);
			this.lastAutoRestart.put(key, new AutoRestart(((last != null) ? last.count() : 0) + 1, Instant.now()));
			this.autoRestarts.incrementAndGet();
		}
	}

	// Strimzi's backoff: n * n + n minutes after the n-th restart, at most 60.
	private record AutoRestart(int count, Instant since) {

		Duration backoff() {
			return Duration.ofMinutes(Math.min(this.count * this.count + this.count, 60));
		}

	}

	private void removeAnnotation(String key, String annotation) throws IOException {
		Map<String, Object> annotations = new LinkedHashMap<>();
		annotations.put(annotation, null);
		this.api.patch(connectors(key), Map.of("metadata", Map.of("annotations", annotations)));
	}

	// The status subresource replaced, as Strimzi's status update does: what the new
	// status leaves out is removed (null in a merge patch).
	private void setStatus(String key, Map<String, Object> resource, List<Map<String, Object>> conditions,
			Map<String, Object> connectorStatus) throws IOException {
		Map<String, Object> status = new LinkedHashMap<>();
		asMap(resource.get("status")).keySet().forEach((field) -> status.put(field, null));
		status.put("conditions", conditions);
		status.put("observedGeneration", asMap(resource.get("metadata")).get("generation"));
		if (connectorStatus != null) {
			status.put("connectorStatus", connectorStatus);
		}
		AutoRestart restarts = this.lastAutoRestart.get(key);
		if (restarts != null) {
			status.put("autoRestart",
					Map.of("count", restarts.count(), "lastRestartTimestamp", restarts.since().toString()));
		}
		Map<String, Object> body = new LinkedHashMap<>();
		body.put("status", status);
		this.api.patch(connectors(key) + "/status", body);
	}

	private String connectors(String key) {
		return connectors(key.substring(0, key.indexOf('/')), key.substring(key.indexOf('/') + 1));
	}

	private String connectors(String namespace, String name) {
		return "/apis/kafka.strimzi.io/" + this.resources.servedVersion() + "/namespaces/" + namespace
				+ "/kafkaconnectors" + ((name != null) ? "/" + name : "");
	}

	/**
	 * Makes the operator's clock run behind: its conditions are stamped that much earlier
	 * than the time is.
	 * @param behind how much
	 */
	public void clockBehind(Duration behind) {
		this.clockBehind = behind;
	}

	private Map<String, Object> condition(String type, String reason, String message) {
		Map<String, Object> condition = new LinkedHashMap<>(Map.of("type", type, "status", "True", "lastTransitionTime",
				Instant.now().minus(this.clockBehind).toString()));
		if (reason != null) {
			condition.put("reason", reason);
			condition.put("message", message);
		}
		return condition;
	}

	private static String capitalized(String word) {
		return Character.toUpperCase(word.charAt(0)) + word.substring(1);
	}

	private Rest call(String method, String path, String body) throws IOException {
		HttpRequest request = HttpRequest.newBuilder(URI.create(this.connectUrl + path))
			.timeout(Duration.ofSeconds(10))
			.header("Content-Type", "application/json")
			.method(method,
					(body != null) ? HttpRequest.BodyPublishers.ofString(body) : HttpRequest.BodyPublishers.noBody())
			.build();
		try {
			HttpResponse<String> response = this.http.send(request, HttpResponse.BodyHandlers.ofString());
			if (response.statusCode() == 404 && path.endsWith("/status")) {
				throw new IOException("Connector not found: " + response.body());
			}
			return new Rest(response.statusCode(), response.body());
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IOException(ex);
		}
	}

	@Override
	public void close() {
		this.loop.shutdownNow();
	}

	private record Rest(int status, String body) {

		Map<String, Object> json() {
			return (this.body == null || this.body.isBlank()) ? Map.of() : asMap(JSON.readValue(this.body, Map.class));
		}

	}

}
