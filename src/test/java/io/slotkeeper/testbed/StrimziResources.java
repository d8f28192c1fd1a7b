package io.slotkeeper.testbed;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import tools.jackson.databind.json.JsonMapper;

/**
 * A Kubernetes API server's stand-in for what Strimzi-managed connectors need, in CRUD
 * mode: {@code KafkaConnector} resources of {@code kafka.strimzi.io} (the versions it is
 * told to serve, listed at {@code /apis/kafka.strimzi.io}; {@code status} kept apart from
 * {@code spec} as a subresource) and ConfigMaps: get, list, create, JSON merge-patch (RFC
 * 7386: {@code null} removes), {@code metadata.generation} bumped when {@code spec}
 * changes. Every request must carry the service-account token it was made with (401
 * otherwise); a namespace can be forbidden (403, as RBAC without the Role). Each write is
 * handed to a listener — the operator emulation reconciles on it, as Strimzi's watch does
 * — and every call is recorded. A patch that carries {@code metadata.resourceVersion} is
 * refused (409) when the resource changed since, as the API server refuses it. Also
 * {@code events.k8s.io/v1} Events: created and merge-patched as the API server validates
 * them, deniable per namespace.
 */
public final class StrimziResources implements AutoCloseable {

	private static final JsonMapper JSON = JsonMapper.builder().build();

	private static final Pattern CONNECTOR = Pattern
		.compile("^/apis/kafka\\.strimzi\\.io/(v1|v1beta2)/namespaces/([^/]+)/kafkaconnectors(?:/([^/]+))?(/status)?$");

	private static final Pattern CONNECT = Pattern
		.compile("^/apis/kafka\\.strimzi\\.io/(v1|v1beta2)/namespaces/([^/]+)/kafkaconnects/([^/]+)$");

	private static final Pattern CONFIG_MAP = Pattern.compile("^/api/v1/namespaces/([^/]+)/configmaps(?:/([^/]+))?$");

	private static final Pattern EVENT = Pattern
		.compile("^/apis/events\\.k8s\\.io/v1/namespaces/([^/]+)/events(?:/([^/]+))?$");

	// What the API server requires of an events.k8s.io/v1 Event it creates.
	private static final List<String> EVENT_FIELDS = List.of("eventTime", "reportingController", "reportingInstance",
			"action", "reason", "type", "regarding");

	private final HttpServer server;

	private final String serviceAccountToken;

	// The operator emulation's own service account: RBAC denials are slot-keeper's, not
	// the operator's, and its calls are not slot-keeper's to count.
	static final String OPERATOR_TOKEN = "strimzi-cluster-operator-token";

	private final List<String> versions;

	private final Map<String, Map<String, Object>> connectors = new ConcurrentHashMap<>();

	private final Map<String, Map<String, Object>> configMaps = new ConcurrentHashMap<>();

	private final Map<String, Map<String, Object>> connects = new ConcurrentHashMap<>();

	private final Map<String, Map<String, Object>> events = new ConcurrentHashMap<>();

	private final Set<String> eventsForbidden = ConcurrentHashMap.newKeySet();

	private final List<String> calls = new CopyOnWriteArrayList<>();

	private final AtomicLong resourceVersion = new AtomicLong();

	private volatile String forbidden = "";

	private volatile int failingWith;

	private volatile boolean hanging;

	private final AtomicReference<Runnable> beforeNextPatch = new AtomicReference<>();

	private volatile Consumer<String> onWrite = (key) -> {
	};

	/**
	 * Starts it on a free loopback port.
	 * @param serviceAccountToken the token every request must carry
	 * @param versions the {@code kafka.strimzi.io} versions it serves, such as {@code v1}
	 * or {@code v1beta2}
	 */
	public StrimziResources(String serviceAccountToken, String... versions) {
		this.serviceAccountToken = serviceAccountToken;
		this.versions = List.of(versions);
		this.server = LocalHttp.start(this::handle, Executors.newCachedThreadPool());
	}

	/**
	 * The API server's URL.
	 * @return for example {@code http://127.0.0.1:40123}
	 */
	public String url() {
		return "http://127.0.0.1:" + this.server.getAddress().getPort();
	}

	/**
	 * Answers 403 for everything in a namespace, as RBAC does without a Role binding
	 * there.
	 * @param namespace the namespace
	 */
	public void forbid(String namespace) {
		this.forbidden = namespace;
	}

	/**
	 * Answers every request with a status, as an API server behind a failing load
	 * balancer or etcd does.
	 * @param status the status, such as 500; 0 to answer again as usual
	 */
	public void failWith(int status) {
		this.failingWith = status;
	}

	/**
	 * Holds every request unanswered until it is let go, as an API server that hangs
	 * does; the caller's timeout ends the wait.
	 * @param on whether requests hang
	 */
	public void hang(boolean on) {
		this.hanging = on;
	}

	// The version a client of kafka.strimzi.io uses: the first served.
	String servedVersion() {
		return this.versions.get(0);
	}

	// The namespaces the operator watches: those that hold a KafkaConnector.
	List<String> connectorNamespaces() {
		return this.connectors.keySet().stream().map((key) -> key.substring(0, key.indexOf('/'))).distinct().toList();
	}

	void onWrite(Consumer<String> listener) {
		this.onWrite = listener;
	}

	/**
	 * Creates a {@code KafkaConnector}, as the user's GitOps does.
	 * @param namespace its namespace
	 * @param name its name
	 * @param spec its spec
	 */
	public void createConnector(String namespace, String name, Map<String, Object> spec) {
		createConnector(namespace, name, Map.of(), spec);
	}

	/**
	 * Creates a {@code KafkaConnector} with labels, such as {@code strimzi.io/cluster}
	 * naming its {@code KafkaConnect}.
	 * @param namespace its namespace
	 * @param name its name
	 * @param labels its labels
	 * @param spec its spec
	 */
	public void createConnector(String namespace, String name, Map<String, String> labels, Map<String, Object> spec) {
		// Written again, it is the same object: its uid stays.
		Object uid = asMap(asMap(this.connectors.get(namespace + "/" + name)).get("metadata")).get("uid");
		Map<String, Object> resource = new LinkedHashMap<>(
				Map.of("apiVersion", "kafka.strimzi.io/v1", "kind", "KafkaConnector", "metadata",
						new LinkedHashMap<>(Map.of("name", name, "namespace", namespace, "uid",
								(uid != null) ? uid : UUID.randomUUID().toString(), "generation", 1L, "annotations",
								new LinkedHashMap<>(), "labels", new LinkedHashMap<>(labels))),
						"spec", copy(spec), "status", new LinkedHashMap<>()));
		asMap(resource.get("metadata")).put("resourceVersion", Long.toString(this.resourceVersion.incrementAndGet()));
		this.connectors.put(namespace + "/" + name, resource);
		this.onWrite.accept(namespace + "/" + name);
	}

	/**
	 * Creates a {@code KafkaConnect} whose status gives its workers' REST address, as the
	 * operator writes it.
	 * @param namespace its namespace
	 * @param name its name
	 * @param url its {@code status.url}, {@code null} for none yet
	 */
	public void createConnect(String namespace, String name, String url) {
		createConnect(namespace, name, url, Map.of());
	}

	/**
	 * A {@code KafkaConnect} with a spec of its own, such as {@code build}.
	 * @param namespace its namespace
	 * @param name its name
	 * @param url its {@code status.url}, {@code null} for none yet
	 * @param spec its {@code spec}
	 */
	public void createConnect(String namespace, String name, String url, Map<String, Object> spec) {
		Map<String, Object> status = new LinkedHashMap<>();
		if (url != null) {
			status.put("url", url);
		}
		this.connects.put(namespace + "/" + name,
				new LinkedHashMap<>(Map.of("apiVersion", "kafka.strimzi.io/v1", "kind", "KafkaConnect", "metadata",
						Map.of("name", name, "namespace", namespace), "spec", spec, "status", status)));
	}

	/**
	 * A {@code KafkaConnector} as stored.
	 * @param namespace its namespace
	 * @param name its name
	 * @return a copy, {@code null} when there is none
	 */
	public Map<String, Object> connector(String namespace, String name) {
		Map<String, Object> resource = this.connectors.get(namespace + "/" + name);
		return (resource != null) ? copy(resource) : null;
	}

	/**
	 * A ConfigMap as stored.
	 * @param namespace its namespace
	 * @param name its name
	 * @return a copy, {@code null} when there is none
	 */
	public Map<String, Object> configMap(String namespace, String name) {
		Map<String, Object> map = this.configMaps.get(namespace + "/" + name);
		return (map != null) ? copy(map) : null;
	}

	/**
	 * Sets a {@code KafkaConnector}'s labels without a watch event, as a write the
	 * operator has not reconciled yet.
	 * @param namespace its namespace
	 * @param name its name
	 * @param labels its labels from now on
	 */
	public void relabel(String namespace, String name, Map<String, String> labels) {
		update(namespace + "/" + name,
				(resource) -> asMap(resource.get("metadata")).put("labels", new LinkedHashMap<>(labels)), false);
	}

	// The operator's own writes: no request, but a watch event all the same.
	synchronized void update(String key, Consumer<Map<String, Object>> change, boolean event) {
		Map<String, Object> resource = this.connectors.get(key);
		if (resource != null) {
			change.accept(resource);
			if (event) {
				this.onWrite.accept(key);
			}
		}
	}

	/**
	 * Runs something just before the next PATCH of a client (not the operator emulation)
	 * is answered, once: a user's write that lands between a client's read and its patch.
	 * @param write the write
	 */
	public void beforeNextPatch(Runnable write) {
		this.beforeNextPatch.set(write);
	}

	/**
	 * Denies creating and patching events in a namespace (403), as a Role without them.
	 * @param namespace the namespace
	 */
	public void forbidEvents(String namespace) {
		this.eventsForbidden.add(namespace);
	}

	/**
	 * The events of a namespace, oldest first.
	 * @param namespace the namespace
	 * @return copies of them
	 */
	public List<Map<String, Object>> events(String namespace) {
		return this.events.entrySet()
			.stream()
			.filter((each) -> each.getKey().startsWith(namespace + "/"))
			.map((each) -> copy(each.getValue()))
			.sorted(Comparator.comparing((event) -> String.valueOf(event.get("eventTime"))))
			.toList();
	}

	/**
	 * The calls made, as {@code METHOD path}.
	 * @return a copy
	 */
	public List<String> calls() {
		return List.copyOf(this.calls);
	}

	private void handle(HttpExchange exchange) throws IOException {
		String method = exchange.getRequestMethod();
		String path = exchange.getRequestURI().getPath();
		String body = new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
		String authorization = exchange.getRequestHeaders().getFirst("Authorization");
		boolean operator = ("Bearer " + OPERATOR_TOKEN).equals(authorization);
		if (!operator) {
			this.calls.add(method + " " + path);
		}
		for (long waited = 0; this.hanging && waited < 600_000 && Pause.of(100); waited += 100) {
			// held, as a hanging API server holds it
		}
		int failing = this.failingWith;
		if (failing != 0) {
			LocalHttp.answer(exchange, failing, JSON.writeValueAsString(status(failing, "the API server failed")));
			return;
		}
		if (!operator && !("Bearer " + this.serviceAccountToken).equals(authorization)) {
			LocalHttp.answer(exchange, 401, JSON.writeValueAsString(status(401, "Unauthorized")));
			return;
		}
		// The next PATCH of a client's, never the operator emulation's own status writes.
		Runnable before = (method.equals("PATCH") && !operator) ? this.beforeNextPatch.getAndSet(null) : null;
		if (before != null) {
			before.run();
		}
		Answer answer = answer(method, path, body, operator ? "" : this.forbidden);
		LocalHttp.answer(exchange, answer.status(), JSON.writeValueAsString(answer.body()));
		if (answer.written() != null) {
			this.onWrite.accept(answer.written());
		}
	}

	private synchronized Answer answer(String method, String path, String body, String forbidden) {
		if (path.equals("/apis/kafka.strimzi.io")) {
			return this.versions.isEmpty() ? new Answer(404, Map.of("kind", "Status", "code", 404), null)
					: new Answer(200,
							Map.of("kind", "APIGroup", "name", "kafka.strimzi.io", "versions",
									this.versions.stream()
										.map((v) -> Map.of("groupVersion", "kafka.strimzi.io/" + v, "version", v))
										.toList()),
							null);
		}
		Matcher connect = CONNECT.matcher(path);
		if (connect.matches() && this.versions.contains(connect.group(1)) && method.equals("GET")) {
			Map<String, Object> stored = this.connects.get(connect.group(2) + "/" + connect.group(3));
			return connect.group(2).equals(forbidden)
					? new Answer(403, status(403, "forbidden: cannot get kafkaconnects in " + connect.group(2)), null)
					: (stored == null) ? new Answer(404, status(404, path + " not found"), null)
							: new Answer(200, copy(stored), null);
		}
		Matcher event = EVENT.matcher(path);
		if (event.matches()) {
			return event(method, event.group(1), event.group(2), body, forbidden);
		}
		Matcher connector = CONNECTOR.matcher(path);
		Matcher configMap = CONFIG_MAP.matcher(path);
		String namespace = connector.matches() ? connector.group(2) : configMap.matches() ? configMap.group(1) : null;
		if (namespace == null || (connector.matches() && !this.versions.contains(connector.group(1)))) {
			return new Answer(404, status(404, "the server could not find the requested resource"), null);
		}
		if (namespace.equals(forbidden)) {
			return new Answer(403, status(403, "forbidden: cannot " + method + " in the namespace " + namespace), null);
		}
		Map<String, Map<String, Object>> store = connector.matches() ? this.connectors : this.configMaps;
		String name = connector.matches() ? connector.group(3) : configMap.group(2);
		String key = namespace + "/" + name;
		Map<String, Object> resource = (name != null) ? store.get(key) : null;
		if (method.equals("POST") && name == null) {
			Map<String, Object> created = asMap(JSON.readValue(body, Map.class));
			String newName = String.valueOf(asMap(created.get("metadata")).get("name"));
			if (store.containsKey(namespace + "/" + newName)) {
				return new Answer(409, status(409, newName + " already exists"), null);
			}
			asMap(created.get("metadata")).put("resourceVersion",
					Long.toString(this.resourceVersion.incrementAndGet()));
			store.put(namespace + "/" + newName, created);
			return new Answer(201, created, null);
		}
		if (method.equals("GET") && name == null) {
			List<Object> items = new ArrayList<>();
			store.forEach((each, stored) -> {
				if (each.startsWith(namespace + "/")) {
					items.add(copy(stored));
				}
			});
			return new Answer(200,
					Map.of("kind", connector.matches() ? "KafkaConnectorList" : "ConfigMapList", "items", items), null);
		}
		if (resource == null) {
			return new Answer(404, status(404, path + " not found"), null);
		}
		if (method.equals("GET")) {
			return new Answer(200, copy(resource), null);
		}
		if (method.equals("PATCH")) {
			Map<String, Object> patch = asMap(JSON.readValue(body, Map.class));
			Object expected = asMap(patch.get("metadata")).get("resourceVersion");
			if (expected != null && !expected.equals(asMap(resource.get("metadata")).get("resourceVersion"))) {
				return new Answer(409, status(409, "Operation cannot be fulfilled on " + path
						+ ": the object has been modified; please apply your changes to the latest version and try again"),
						null);
			}
			if (connector.matches() && connector.group(4) == null) {
				patch.remove("status");
				Object specBefore = copy(asMap(resource.get("spec")));
				merge(resource, patch);
				if (!Objects.equals(specBefore, resource.get("spec"))) {
					Map<String, Object> metadata = asMap(resource.get("metadata"));
					metadata.put("generation", ((Number) metadata.getOrDefault("generation", 0L)).longValue() + 1);
				}
			}
			else {
				merge(resource, patch);
			}
			asMap(resource.get("metadata")).put("resourceVersion",
					Long.toString(this.resourceVersion.incrementAndGet()));
			// A status written is no change to reconcile: the operator's own write.
			return new Answer(200, copy(resource), (connector.matches() && connector.group(4) == null) ? key : null);
		}
		return new Answer(405, status(405, method + " not allowed"), null);
	}

	// Create and merge-patch, validated as the API server validates events.k8s.io/v1.
	private Answer event(String method, String namespace, String name, String body, String forbidden) {
		if (namespace.equals(forbidden) || this.eventsForbidden.contains(namespace)) {
			return new Answer(403, status(403, "events.events.k8s.io is forbidden: User cannot " + method.toLowerCase()
					+ " resource \"events\" in API group \"events.k8s.io\" in the namespace \"" + namespace + "\""),
					null);
		}
		Map<String, Object> given = asMap(JSON.readValue(body, Map.class));
		if (method.equals("POST") && name == null) {
			List<String> missing = EVENT_FIELDS.stream().filter((field) -> !given.containsKey(field)).toList();
			String created = String.valueOf(asMap(given.get("metadata")).get("name"));
			if (!missing.isEmpty() || !List.of("Normal", "Warning").contains(given.get("type"))
					|| String.valueOf(given.getOrDefault("note", "")).length() > 1024
					|| !namespace.equals(asMap(given.get("metadata")).get("namespace"))) {
				return new Answer(422, status(422, "Event is invalid: missing " + missing + " or a bad type or note"),
						null);
			}
			if (this.events.putIfAbsent(namespace + "/" + created, given) != null) {
				return new Answer(409, status(409, created + " already exists"), null);
			}
			return new Answer(201, given, null);
		}
		Map<String, Object> stored = (name != null) ? this.events.get(namespace + "/" + name) : null;
		if (method.equals("PATCH") && stored != null) {
			Object count = asMap(given.get("series")).get("count");
			if (given.containsKey("series") && !(count instanceof Number number && number.intValue() >= 2)) {
				return new Answer(422, status(422, "Event is invalid: series.count must be at least 2"), null);
			}
			merge(stored, given);
			return new Answer(200, copy(stored), null);
		}
		return new Answer((stored == null) ? 404 : 405, status(404, path(namespace, name) + " not found"), null);
	}

	private static String path(String namespace, String name) {
		return "/apis/events.k8s.io/v1/namespaces/" + namespace + "/events/" + name;
	}

	@SuppressWarnings("unchecked")
	static void merge(Map<String, Object> target, Map<String, Object> patch) {
		patch.forEach((key, value) -> {
			if (value == null) {
				target.remove(key);
			}
			else if (value instanceof Map<?, ?> map && target.get(key) instanceof Map<?, ?> existing) {
				Map<String, Object> into = new LinkedHashMap<>((Map<String, Object>) existing);
				merge(into, (Map<String, Object>) map);
				target.put(key, into);
			}
			else if (value instanceof Map<?, ?> map) {
				Map<String, Object> into = new LinkedHashMap<>();
				merge(into, (Map<String, Object>) map);
				target.put(key, into);
			}
			else {
				target.put(key, value);
			}
		});
	}

	@SuppressWarnings("unchecked")
	static Map<String, Object> asMap(Object value) {
		return (value instanceof Map<?, ?> map) ? (Map<String, Object>) map : new LinkedHashMap<>();
	}

	@SuppressWarnings("unchecked")
	static <T> T copy(T value) {
		return (T) JSON.readValue(JSON.writeValueAsBytes(value), Object.class);
	}

	private static Map<String, Object> status(int code, String message) {
		return Map.of("kind", "Status", "apiVersion", "v1", "status", "Failure", "message", message, "code", code);
	}

	@Override
	public void close() {
		this.server.stop(0);
	}

	private record Answer(int status, Object body, String written) {
	}

	static List<Object> list(Object value) {
		return (value instanceof List<?> list) ? new ArrayList<>(list) : new ArrayList<>();
	}

}
