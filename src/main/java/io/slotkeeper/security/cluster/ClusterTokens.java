package io.slotkeeper.security.cluster;

import java.io.IOException;
import java.nio.file.Files;
import java.time.Clock;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.security.authentication.BadCredentialsException;
import org.springframework.security.authentication.UsernamePasswordAuthenticationToken;
import org.springframework.security.core.Authentication;
import org.springframework.security.core.GrantedAuthority;
import org.springframework.security.core.authority.AuthorityUtils;

import io.slotkeeper.audit.Actor;
import io.slotkeeper.config.KubernetesAuthProperties;
import io.slotkeeper.security.TokenHashes;

/**
 * Signs in a caller with its own cluster token: {@code TokenReview}, then {@code SubjectAccessReview}s for
 * {@code get} (viewer) and {@code update} and {@code delete} (operator) on the configured resource in the namespace.
 * Each token's answer — a user with its roles, or "not authenticated" — is kept for {@code cache-ttl} under the
 * token's SHA-256 (never the token), at most {@value #MAX_CACHED} of them; a failure to reach the API server is never
 * kept, so the next request asks again.
 */
public final class ClusterTokens {

	static final int MAX_CACHED = 10_000;

	private static final List<String> VERBS = List.of("get", "update", "delete");

	private static final Logger logger = LoggerFactory.getLogger(ClusterTokens.class);

	private final ClusterReviews reviews;

	private final KubernetesAuthProperties settings;

	private final Clock clock;

	private final Map<String, Answer> cache = new ConcurrentHashMap<>();

	private volatile boolean unavailable;

	/**
	 * Creates the sign-in from its settings.
	 * @param settings {@code slotkeeper.api.kubernetes}
	 * @param clock the clock the cache expires by
	 */
	public ClusterTokens(KubernetesAuthProperties settings, Clock clock) {
		this.settings = settings;
		this.clock = clock;
		this.reviews = new ClusterReviews(settings, namespace(settings));
		logger.info("Cluster sign-in on: tokens that are not static ones are reviewed by {} ({} on {}.{} in namespace"
				+ " '{}' makes a viewer, update and delete an operator; answers kept {} s)", settings.apiServer(), "get",
				settings.resource(), settings.group(), this.reviews.namespace(), settings.cacheTtl().toSeconds());
	}

	/**
	 * Signs a caller in.
	 * @param token the caller's bearer token
	 * @return the authenticated caller with its roles (none when RBAC grants neither)
	 * @throws BadCredentialsException when the API server does not authenticate the token
	 * @throws ClusterUnavailable when the API server cannot be asked
	 */
	public Authentication authenticate(String token) {
		String key = TokenHashes.sha256Hex(token);
		Instant now = this.clock.instant();
		Answer answer = this.cache.get(key);
		if (answer == null || !now.isBefore(answer.expiresAt())) {
			answer = review(token, now);
			remember(key, answer, now);
		}
		if (answer.user() == null) {
			throw new BadCredentialsException("the bearer token is neither a configured token nor one the Kubernetes API "
					+ "server authenticates");
		}
		UsernamePasswordAuthenticationToken authenticated = UsernamePasswordAuthenticationToken
			.authenticated(answer.user().username(), null, answer.authorities());
		authenticated.setDetails(new Actor(answer.user().username(), answer.user().groups()));
		return authenticated;
	}

	private Answer review(String token, Instant now) {
		Instant expiresAt = now.plus(this.settings.cacheTtl());
		try {
			Optional<ClusterUser> user = this.reviews.authenticate(token);
			Answer answer = user.map((found) -> new Answer(found, authorities(found), expiresAt))
				.orElseGet(() -> new Answer(null, List.of(), expiresAt));
			if (this.unavailable) {
				this.unavailable = false;
				logger.info("The Kubernetes API server answers reviews again");
			}
			return answer;
		}
		catch (ClusterUnavailable ex) {
			if (!this.unavailable) {
				this.unavailable = true;
				logger.warn("Cluster tokens cannot be checked: {}; they are answered 503 until it answers, static tokens "
						+ "still work", ex.getMessage());
			}
			throw ex;
		}
	}

	private List<GrantedAuthority> authorities(ClusterUser user) {
		Set<String> allowed = this.reviews.allowed(user, VERBS);
		if (allowed.contains("update") && allowed.contains("delete")) {
			return AuthorityUtils.createAuthorityList("ROLE_VIEWER", "ROLE_OPERATOR");
		}
		return allowed.contains("get") ? AuthorityUtils.createAuthorityList("ROLE_VIEWER") : List.of();
	}

	private void remember(String key, Answer answer, Instant now) {
		if (this.cache.size() >= MAX_CACHED) {
			this.cache.values().removeIf((cached) -> !now.isBefore(cached.expiresAt()));
			if (this.cache.size() >= MAX_CACHED) {
				// Many live distinct tokens at once: forgetting them all costs only new reviews.
				this.cache.clear();
			}
		}
		this.cache.put(key, answer);
	}

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

	private record Answer(ClusterUser user, List<GrantedAuthority> authorities, Instant expiresAt) {
	}

}
