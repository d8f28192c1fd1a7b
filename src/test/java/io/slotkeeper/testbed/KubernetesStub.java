package io.slotkeeper.testbed;

import java.io.IOException;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * A local stand-in for the two review APIs of a Kubernetes API server:
 * {@code TokenReview} (authentication.k8s.io/v1) authenticates the tokens it was told
 * about, {@code SubjectAccessReview} (authorization.k8s.io/v1) allows the verbs granted
 * to a user on one resource of one group in one namespace, as RBAC would, and as
 * OpenShift's scope authorizer, only within a token's OAuth scopes when the access review
 * carries them in {@code extra}. A token may be bound to audiences: a review that names
 * others does not authenticate it. Both need the service-account token it was made with
 * (401 otherwise, like the real one). It counts the reviews,
 * {@link #unreachable(boolean)} makes it drop every connection unanswered and
 * {@link #hold(boolean)} keeps token reviews waiting, as a slow API server.
 */
public final class KubernetesStub implements AutoCloseable {

	private static final JsonMapper JSON = JsonMapper.builder().build();

	private final HttpServer server;

	private final String serviceAccountToken;

	private final String namespace;

	private final String group;

	private final String resource;

	private final Map<String, Map<String, Object>> users = new ConcurrentHashMap<>();

	private final Map<String, Set<String>> verbs = new ConcurrentHashMap<>();

	private final AtomicInteger tokenReviews = new AtomicInteger();

	private final AtomicInteger accessReviews = new AtomicInteger();

	private final List<String> bodies = new java.util.concurrent.CopyOnWriteArrayList<>();

	private static final String SCOPES = "scopes.authorization.openshift.io";

	private final Map<String, List<String>> audiences = new ConcurrentHashMap<>();

	private final AtomicInteger held = new AtomicInteger();

	private final AtomicInteger maxHeld = new AtomicInteger();

	private volatile java.util.concurrent.CountDownLatch hold = new java.util.concurrent.CountDownLatch(0);

	private volatile java.time.Duration holdAtMost = java.time.Duration.ofSeconds(30);

	private volatile boolean unreachable;

	/**
	 * Starts the stand-in on a free loopback port.
	 * @param serviceAccountToken the token slot-keeper's reviews must carry
	 * @param namespace the namespace whose grants count
	 * @param group the resource's API group
	 * @param resource the resource
	 */
	public KubernetesStub(String serviceAccountToken, String namespace, String group, String resource) {
		this.serviceAccountToken = serviceAccountToken;
		this.namespace = namespace;
		this.group = group;
		this.resource = resource;
		this.server = LocalHttp.start(this::handle, java.util.concurrent.Executors.newCachedThreadPool());
	}

	/**
	 * The API server's URL.
	 * @return for example {@code http://127.0.0.1:40123}
	 */
	public String url() {
		return "http://127.0.0.1:" + this.server.getAddress().getPort();
	}

	/**
	 * Makes a token authenticate as a user with groups, granted some verbs on the
	 * resource.
	 * @param token the user's token
	 * @param username the user's name
	 * @param groups its groups
	 * @param granted the verbs RBAC grants it
	 */
	public void user(String token, String username, List<String> groups, String... granted) {
		scopedUser(token, username, groups, Map.of(), granted);
	}

	/**
	 * Makes a token authenticate as a user with {@code extra} attributes, such as
	 * OpenShift's OAuth scopes.
	 * @param token the user's token
	 * @param username the user's name
	 * @param groups its groups
	 * @param extra what the token review answers in {@code user.extra}
	 * @param granted the verbs RBAC grants the user (a scoped token gets them only where
	 * its scopes allow)
	 */
	public void scopedUser(String token, String username, List<String> groups, Map<String, List<String>> extra,
			String... granted) {
		this.users.put(token, Map.of("username", username, "uid", "uid-" + username, "groups", groups, "extra", extra));
		this.verbs.put(username, Set.of(granted));
	}

	/**
	 * Binds a token to audiences, as {@code oc create token --audience} does.
	 * @param token the token
	 * @param bound its audiences
	 */
	public void audiences(String token, String... bound) {
		this.audiences.put(token, List.of(bound));
	}

	/**
	 * Keeps every token review waiting while on; off answers those waiting.
	 * @param on whether reviews wait
	 */
	public void hold(boolean on) {
		holdFor(java.time.Duration.ofSeconds(30), on);
	}

	/**
	 * Keeps every token review waiting while on, each at most for a while, as a slow API
	 * server that still answers: shorter than slot-keeper's timeout, each review it holds
	 * is one slot-keeper still waits for.
	 * @param atMost how long one review waits
	 * @param on whether reviews wait
	 */
	public void holdFor(java.time.Duration atMost, boolean on) {
		this.holdAtMost = atMost;
		if (on) {
			this.maxHeld.set(this.held.get());
			this.hold = new java.util.concurrent.CountDownLatch(1);
		}
		else {
			this.hold.countDown();
		}
	}

	/**
	 * Token reviews waiting now.
	 * @return the count
	 */
	public int held() {
		return this.held.get();
	}

	/**
	 * The most token reviews that waited at once since reviews were last held.
	 * @return the count
	 */
	public int maxHeld() {
		return this.maxHeld.get();
	}

	/**
	 * Drops every connection without an answer while on, as an API server that is gone.
	 * @param on whether it is unreachable
	 */
	public void unreachable(boolean on) {
		this.unreachable = on;
	}

	/**
	 * Token reviews answered so far.
	 * @return the count
	 */
	public int tokenReviews() {
		return this.tokenReviews.get();
	}

	/**
	 * Access reviews answered so far.
	 * @return the count
	 */
	public int accessReviews() {
		return this.accessReviews.get();
	}

	/**
	 * Every request body received, for checks on what slot-keeper sends.
	 * @return the bodies
	 */
	public List<String> bodies() {
		return List.copyOf(this.bodies);
	}

	private void handle(HttpExchange exchange) throws IOException {
		if (this.unreachable) {
			exchange.close();
			return;
		}
		String body = new String(exchange.getRequestBody().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
		this.bodies.add(body);
		if (!("Bearer " + this.serviceAccountToken).equals(exchange.getRequestHeaders().getFirst("Authorization"))) {
			LocalHttp.answer(exchange, 401, "{\"kind\":\"Status\",\"code\":401,\"reason\":\"Unauthorized\"}");
			return;
		}
		JsonNode spec = JSON.readTree(body).path("spec");
		String path = exchange.getRequestURI().getPath();
		if ("POST".equals(exchange.getRequestMethod()) && path.equals("/apis/authentication.k8s.io/v1/tokenreviews")) {
			this.tokenReviews.incrementAndGet();
			awaitRelease();
			String token = spec.path("token").asString();
			Map<String, Object> user = this.users.get(token);
			List<String> tokenAudiences = this.audiences.getOrDefault(token, List.of("https://kubernetes.default.svc"));
			List<String> asked = new java.util.ArrayList<>();
			spec.path("audiences").forEach((audience) -> asked.add(audience.asString()));
			List<String> valid = asked.isEmpty() ? tokenAudiences
					: asked.stream().filter(tokenAudiences::contains).toList();
			Map<String, Object> status = (user != null && !valid.isEmpty())
					? Map.of("authenticated", true, "user", user, "audiences", valid)
					: Map.of("authenticated", false, "error", "invalid bearer token");
			LocalHttp.answer(exchange, 201, JSON.writeValueAsString(
					Map.of("apiVersion", "authentication.k8s.io/v1", "kind", "TokenReview", "status", status)));
		}
		else if ("POST".equals(exchange.getRequestMethod())
				&& path.equals("/apis/authorization.k8s.io/v1/subjectaccessreviews")) {
			this.accessReviews.incrementAndGet();
			JsonNode attributes = spec.path("resourceAttributes");
			boolean here = this.namespace.equals(attributes.path("namespace").asString())
					&& this.group.equals(attributes.path("group").asString())
					&& this.resource.equals(attributes.path("resource").asString());
			// OpenShift's scope authorizer: a token scoped to anything short of user:full
			// reaches no slots.
			JsonNode scopes = spec.path("extra").path(SCOPES);
			boolean withinScopes = scopes.isMissingNode() || scopes.toString().contains("\"user:full\"");
			boolean allowed = here && withinScopes && this.verbs.getOrDefault(spec.path("user").asString(), Set.of())
				.contains(attributes.path("verb").asString());
			LocalHttp.answer(exchange, 201, JSON.writeValueAsString(Map.of("apiVersion", "authorization.k8s.io/v1",
					"kind", "SubjectAccessReview", "status", Map.of("allowed", allowed))));
		}
		else {
			LocalHttp.answer(exchange, 404, "{\"kind\":\"Status\",\"code\":404}");
		}
	}

	private void awaitRelease() {
		this.maxHeld.accumulateAndGet(this.held.incrementAndGet(), Math::max);
		try {
			this.hold.await(this.holdAtMost.toMillis(), java.util.concurrent.TimeUnit.MILLISECONDS);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
		finally {
			this.held.decrementAndGet();
		}
	}

	@Override
	public void close() {
		this.server.stop(0);
	}

}
