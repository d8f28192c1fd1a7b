package io.slotkeeper.security.cluster;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Semaphore;
import java.util.function.Predicate;

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
import io.slotkeeper.support.RecentlyUsed;

/**
 * Signs in a caller with its own cluster token: {@code TokenReview}, then
 * {@code SubjectAccessReview}s for {@code get} (viewer) and {@code update} and
 * {@code delete} (operator) on the configured resource in the namespace. A user's answer
 * is kept for {@code cache-ttl} under the token's SHA-256 (never the token), the
 * {@value #MAX_CACHED} most recently used of them; "not authenticated" is kept apart, for
 * at most {@link #UNKNOWN_TTL}, so that made-up tokens never push out a real user's
 * answer. One review runs per token at a time (others asking with the same token wait for
 * it), at most {@code max-concurrent-reviews} at once (past that, 503 at once); a failure
 * to reach the API server is never kept, so the next request asks again.
 */
public final class ClusterTokens {

	static final int MAX_CACHED = 10_000;

	static final Duration UNKNOWN_TTL = Duration.ofSeconds(5);

	private static final List<String> VERBS = List.of("get", "update", "delete");

	private static final Logger logger = LoggerFactory.getLogger(ClusterTokens.class);

	private final ClusterReviews reviews;

	private final KubernetesAuthProperties settings;

	private final Clock clock;

	private final RecentlyUsed<String, Answer> users;

	private final RecentlyUsed<String, Answer> unknown;

	private final Map<String, CompletableFuture<Answer>> inFlight = new ConcurrentHashMap<>();

	private final ReviewPermits permits;

	private volatile boolean unavailable;

	/**
	 * Creates the sign-in from its settings.
	 * @param settings {@code slotkeeper.api.kubernetes}
	 * @param clock the clock the cache expires by
	 */
	public ClusterTokens(KubernetesAuthProperties settings, Clock clock) {
		this(settings, clock, MAX_CACHED);
	}

	ClusterTokens(KubernetesAuthProperties settings, Clock clock, int capacity) {
		this.users = new RecentlyUsed<>(capacity);
		this.unknown = new RecentlyUsed<>(capacity);
		this.settings = settings;
		this.clock = clock;
		this.reviews = new ClusterReviews(settings);
		this.permits = new ReviewPermits(settings.maxConcurrentReviews());
		logger.info(
				"Cluster sign-in on: tokens that are not static ones are reviewed by {} ({} on {}.{} in namespace"
						+ " '{}' makes a viewer, update and delete an operator; answers kept {} s)",
				settings.apiServer(), "get", settings.resource(), settings.group(), this.reviews.namespace(),
				settings.cacheTtl().toSeconds());
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
		Predicate<Answer> unexpired = (kept) -> now.isBefore(kept.expiresAt());
		Answer answer = this.users.getIf(key, unexpired);
		if (answer == null) {
			answer = this.unknown.getIf(key, unexpired);
		}
		if (answer == null) {
			answer = reviewOnce(key, token, now);
		}
		if (answer.user() == null) {
			throw new BadCredentialsException(
					"the bearer token is neither a configured token nor one the Kubernetes API "
							+ "server authenticates");
		}
		UsernamePasswordAuthenticationToken authenticated = UsernamePasswordAuthenticationToken
			.authenticated(answer.user().username(), null, answer.authorities());
		authenticated.setDetails(new Actor(answer.user().username(), answer.user().groups()));
		return authenticated;
	}

	// The first request with a token reviews it; the others with the same token wait for
	// its answer.
	private Answer reviewOnce(String key, String token, Instant now) {
		CompletableFuture<Answer> mine = new CompletableFuture<>();
		CompletableFuture<Answer> running = this.inFlight.putIfAbsent(key, mine);
		if (running != null) {
			try {
				return running.join();
			}
			catch (CompletionException ex) {
				throw (ex.getCause() instanceof RuntimeException cause) ? cause : ex;
			}
		}
		try {
			Semaphore permit = this.permits.take(token);
			if (permit == null) {
				throw new ClusterUnavailable("too many cluster tokens are under review at once (max-concurrent-reviews "
						+ this.settings.maxConcurrentReviews() + ")");
			}
			try {
				Answer answer = review(token, now);
				((answer.user() != null) ? this.users : this.unknown).put(key, answer);
				mine.complete(answer);
				return answer;
			}
			finally {
				permit.release();
			}
		}
		catch (RuntimeException ex) {
			mine.completeExceptionally(ex);
			throw ex;
		}
		finally {
			this.inFlight.remove(key, mine);
		}
	}

	private Answer review(String token, Instant now) {
		Instant expiresAt = now.plus(this.settings.cacheTtl());
		Instant unknownExpiresAt = now.plus(min(this.settings.cacheTtl(), UNKNOWN_TTL));
		try {
			Optional<ClusterUser> user = this.reviews.authenticate(token);
			Answer answer = user.map((found) -> new Answer(found, authorities(found), expiresAt))
				.orElseGet(() -> new Answer(null, List.of(), unknownExpiresAt));
			if (this.unavailable) {
				this.unavailable = false;
				logger.info("The Kubernetes API server answers reviews again");
			}
			return answer;
		}
		catch (ClusterUnavailable ex) {
			if (!this.unavailable) {
				this.unavailable = true;
				logger
					.warn("Cluster tokens cannot be checked: {}; they are answered 503 until it answers, static tokens "
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

	private static Duration min(Duration a, Duration b) {
		return (a.compareTo(b) <= 0) ? a : b;
	}

	private record Answer(ClusterUser user, List<GrantedAuthority> authorities, Instant expiresAt) {
	}

}
