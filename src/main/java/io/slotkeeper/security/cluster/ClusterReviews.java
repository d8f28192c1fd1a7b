package io.slotkeeper.security.cluster;

import java.io.IOException;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import io.slotkeeper.config.KubernetesAuthProperties;
import io.slotkeeper.kubernetes.KubernetesApi;

/**
 * The two review calls to the Kubernetes API server, made with the pod's service-account
 * token (read from its file at every call, since projected tokens rotate):
 * {@code TokenReview} (who is this token) and {@code SubjectAccessReview} (may this user
 * do this verb on slot-keeper's resource in the namespace). Neither request nor failure
 * ever shows a token.
 */
final class ClusterReviews {

	private static final JsonMapper json = JsonMapper.builder().build();

	private static final String TOKEN_REVIEWS = "/apis/authentication.k8s.io/v1/tokenreviews";

	private static final String SUBJECT_ACCESS_REVIEWS = "/apis/authorization.k8s.io/v1/subjectaccessreviews";

	private final KubernetesAuthProperties settings;

	private final String namespace;

	private final KubernetesApi api;

	ClusterReviews(KubernetesAuthProperties settings) {
		this.settings = settings;
		this.namespace = namespace(settings);
		this.api = new KubernetesApi(settings.apiServer(), settings.serviceAccountTokenFile(), settings.caFile(),
				settings.timeout());
	}

	String namespace() {
		return this.namespace;
	}

	/**
	 * Who a token is.
	 * @param token the caller's token
	 * @return the user, empty when the API server does not authenticate the token
	 */
	Optional<ClusterUser> authenticate(String token) {
		List<String> audiences = this.settings.audiences();
		Map<String, Object> spec = audiences.isEmpty() ? Map.of("token", token)
				: Map.of("token", token, "audiences", audiences);
		JsonNode status = review(TOKEN_REVIEWS,
				Map.of("apiVersion", "authentication.k8s.io/v1", "kind", "TokenReview", "spec", spec));
		if (!status.path("authenticated").asBoolean(false) || !meantForUs(status.path("audiences"))) {
			return Optional.empty();
		}
		JsonNode user = status.path("user");
		Map<String, List<String>> extra = new LinkedHashMap<>();
		user.path("extra").properties().forEach((entry) -> extra.put(entry.getKey(), strings(entry.getValue())));
		return Optional.of(new ClusterUser(user.path("username").asString(""), user.path("uid").asString(""),
				strings(user.path("groups")), Map.copyOf(extra)));
	}

	// The API server answers the audiences of the request that the token is valid for;
	// none of them, no sign-in.
	private boolean meantForUs(JsonNode answered) {
		if (this.settings.audiences().isEmpty()) {
			return true;
		}
		return strings(answered).stream().anyMatch(this.settings.audiences()::contains);
	}

	private static List<String> strings(JsonNode array) {
		List<String> values = new ArrayList<>();
		array.forEach((value) -> values.add(value.asString()));
		return List.copyOf(values);
	}

	/**
	 * Which verbs a user may do on slot-keeper's resource in the namespace: one review
	 * per verb, all at once.
	 * @param user the user
	 * @param verbs for example {@code get}, {@code update}, {@code delete}
	 * @return the verbs RBAC allows
	 */
	Set<String> allowed(ClusterUser user, List<String> verbs) {
		Map<String, CompletableFuture<JsonNode>> reviews = new LinkedHashMap<>();
		for (String verb : verbs) {
			Map<String, Object> attributes = Map.of("namespace", this.namespace, "group", this.settings.group(),
					"resource", this.settings.resource(), "verb", verb);
			Map<String, Object> spec = new LinkedHashMap<>(Map.of("user", user.username(), "uid", user.uid(), "groups",
					user.groups(), "resourceAttributes", attributes));
			if (!user.extra().isEmpty()) {
				spec.put("extra", user.extra());
			}
			reviews.put(verb, send(SUBJECT_ACCESS_REVIEWS,
					Map.of("apiVersion", "authorization.k8s.io/v1", "kind", "SubjectAccessReview", "spec", spec)));
		}
		Set<String> allowed = new HashSet<>();
		reviews.forEach((verb, review) -> {
			JsonNode status = join(SUBJECT_ACCESS_REVIEWS, review);
			if (status.path("allowed").asBoolean(false) && !status.path("denied").asBoolean(false)) {
				allowed.add(verb);
			}
		});
		return allowed;
	}

	private JsonNode review(String path, Map<String, Object> body) {
		return join(path, send(path, body));
	}

	private CompletableFuture<JsonNode> send(String path, Map<String, Object> body) {
		HttpRequest request;
		try {
			request = this.api.request(path)
				.header("Content-Type", "application/json")
				.POST(HttpRequest.BodyPublishers.ofByteArray(json.writeValueAsBytes(body)))
				.build();
		}
		catch (KubernetesApi.TokenUnreadable ex) {
			throw new ClusterUnavailable(ex.getMessage());
		}
		return this.api.client().sendAsync(request, HttpResponse.BodyHandlers.ofByteArray()).thenApply((response) -> {
			if (response.statusCode() != 200 && response.statusCode() != 201) {
				throw new ClusterUnavailable("the Kubernetes API server answered " + response.statusCode() + " to "
						+ path
						+ ((response.statusCode() == 401 || response.statusCode() == 403)
								? ": slot-keeper's service account needs system:auth-delegator (the chart binds it)"
								: ""));
			}
			return json.readTree(response.body()).path("status");
		});
	}

	private JsonNode join(String path, CompletableFuture<JsonNode> answer) {
		try {
			return answer.get();
		}
		catch (ExecutionException ex) {
			Throwable cause = ex.getCause();
			if (cause instanceof ClusterUnavailable unavailable) {
				throw unavailable;
			}
			if (cause instanceof HttpTimeoutException) {
				throw new ClusterUnavailable("the Kubernetes API server did not answer " + path + " within "
						+ this.settings.timeout().toMillis() + " ms");
			}
			throw new ClusterUnavailable("the Kubernetes API server is unreachable at " + this.settings.apiServer()
					+ " (" + cause.getClass().getSimpleName() + ")");
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new ClusterUnavailable("interrupted while waiting for the Kubernetes API server");
		}
	}

	// The configured namespace, else the pod's own.
	private static String namespace(KubernetesAuthProperties settings) {
		if (!settings.namespace().isEmpty()) {
			return settings.namespace();
		}
		try {
			return Files.readString(KubernetesAuthProperties.NAMESPACE_FILE).trim();
		}
		catch (IOException ex) {
			throw new IllegalStateException("slotkeeper.api.kubernetes.namespace is empty and "
					+ KubernetesAuthProperties.NAMESPACE_FILE + " cannot be read", ex);
		}
	}

}
