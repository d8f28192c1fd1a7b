package io.slotkeeper.security.cluster;

import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import org.springframework.security.authentication.BadCredentialsException;
import org.springframework.security.core.Authentication;
import org.springframework.security.core.GrantedAuthority;

import io.slotkeeper.config.KubernetesAuthProperties;
import io.slotkeeper.testbed.KubernetesStub;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.awaitility.Awaitility.await;

/**
 * What a cluster token is allowed, decided against a stand-in of the review APIs:
 * OpenShift's OAuth scopes travel with every access review, a token meant for another
 * audience signs nobody in, and made-up tokens never push out a real user's answer.
 */
class ClusterTokensTests {

	private static final String SERVICE_ACCOUNT = "sa-token";

	private final KubernetesStub kubernetes = new KubernetesStub(SERVICE_ACCOUNT, "ns", "slotkeeper.io", "slots");

	@AfterEach
	void stop() {
		this.kubernetes.close();
	}

	@Test
	void aTokenScopedToUserInfoGetsNoneOfItsUsersRights() throws IOException {
		this.kubernetes.scopedUser("scoped-token", "sam", List.of("sre"),
				Map.of("scopes.authorization.openshift.io", List.of("user:info")), "get", "update", "delete");
		this.kubernetes.scopedUser("full-token", "sam", List.of("sre"),
				Map.of("scopes.authorization.openshift.io", List.of("user:full")), "get", "update", "delete");
		ClusterTokens tokens = new ClusterTokens(settings(List.of()), Clock.systemUTC());
		assertThat(roles(tokens.authenticate("scoped-token"))).isEmpty();
		assertThat(roles(tokens.authenticate("full-token"))).containsExactly("ROLE_VIEWER", "ROLE_OPERATOR");
		assertThat(this.kubernetes.bodies()).filteredOn((body) -> body.contains("SubjectAccessReview"))
			.anySatisfy((body) -> assertThat(body).contains("\"scopes.authorization.openshift.io\":[\"user:info\"]"));
	}

	@Test
	void withAudiencesConfiguredOnlyATokenMeantForSlotKeeperSignsIn() throws IOException {
		this.kubernetes.user("api-server-token", "ann", List.of("sre"), "get");
		this.kubernetes.user("slot-keeper-token", "ann", List.of("sre"), "get");
		this.kubernetes.audiences("slot-keeper-token", "slot-keeper");
		ClusterTokens tokens = new ClusterTokens(settings(List.of("slot-keeper")), Clock.systemUTC());
		assertThat(roles(tokens.authenticate("slot-keeper-token"))).containsExactly("ROLE_VIEWER");
		assertThatExceptionOfType(BadCredentialsException.class)
			.isThrownBy(() -> tokens.authenticate("api-server-token"));
		assertThat(this.kubernetes.bodies()).filteredOn((body) -> body.contains("TokenReview"))
			.allSatisfy((body) -> assertThat(body).contains("\"audiences\":[\"slot-keeper\"]"));
		ClusterTokens anyAudience = new ClusterTokens(settings(List.of()), Clock.systemUTC());
		assertThat(roles(anyAudience.authenticate("api-server-token"))).containsExactly("ROLE_VIEWER");
	}

	@Test
	void madeUpTokensNeverPushOutARealUsersAnswerAndTheLeastRecentlyUsedUserGoesFirst() throws IOException {
		ClusterTokens tokens = new ClusterTokens(settings(List.of()), Clock.systemUTC(), 20);
		for (int i = 0; i < 20; i++) {
			this.kubernetes.user("user-token-" + i, "user" + i, List.of("sre"), "get");
			tokens.authenticate("user-token-" + i);
		}
		for (int i = 0; i < 50; i++) {
			String bogus = "bogus-token-" + i;
			assertThatExceptionOfType(BadCredentialsException.class).isThrownBy(() -> tokens.authenticate(bogus));
		}
		int reviews = this.kubernetes.tokenReviews();
		for (int i = 1; i < 20; i++) {
			tokens.authenticate("user-token-" + i);
		}
		assertThat(this.kubernetes.tokenReviews()).as("every user's answer kept").isEqualTo(reviews);
		this.kubernetes.user("user-token-20", "user20", List.of("sre"), "get");
		tokens.authenticate("user-token-20");
		tokens.authenticate("user-token-1");
		assertThat(this.kubernetes.tokenReviews()).as("user 20 reviewed, user 1 still kept").isEqualTo(reviews + 1);
		tokens.authenticate("user-token-0");
		assertThat(this.kubernetes.tokenReviews()).as("user 0, least recently used, was forgotten")
			.isEqualTo(reviews + 2);
	}

	@Test
	void madeUpTokensUnderReviewCannotHoldTheReviewsARealClusterTokenNeeds() throws Exception {
		String real = "eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiJzeXN0ZW06c2EifQ.c2lnbmF0dXJl";
		this.kubernetes.user(real, "system:serviceaccount:ns:ci", List.of(), "get");
		ClusterTokens tokens = new ClusterTokens(settings(List.of(), 4), Clock.systemUTC());
		this.kubernetes.hold(true);
		ExecutorService callers = Executors.newFixedThreadPool(5);
		try {
			List<Future<?>> bogus = new ArrayList<>();
			for (int i = 0; i < 4; i++) {
				String token = "made-up-" + i;
				bogus.add(callers.submit(() -> tokens.authenticate(token)));
			}
			await().atMost(Duration.ofSeconds(5))
				.until(() -> this.kubernetes.held() == 2 && bogus.stream().filter(Future::isDone).count() == 2);
			Future<Authentication> user = callers.submit(() -> tokens.authenticate(real));
			await("a service account's token is under review, not refused").atMost(Duration.ofSeconds(5))
				.until(() -> this.kubernetes.held() == 3);
			this.kubernetes.hold(false);
			assertThat(roles(user.get(10, TimeUnit.SECONDS))).containsExactly("ROLE_VIEWER");
		}
		finally {
			this.kubernetes.hold(false);
			callers.shutdownNow();
		}
		assertThat(ReviewPermits.looksLikeClusters("sha256~abc")).isTrue();
		assertThat(ReviewPermits.looksLikeClusters("eyJ.x")).isFalse();
		assertThat(ReviewPermits.looksLikeClusters("eyJa.b.c d")).isFalse();
		assertThat(ReviewPermits.looksLikeClusters("hunter2")).isFalse();
	}

	private KubernetesAuthProperties settings(List<String> audiences) throws IOException {
		return settings(audiences, 8);
	}

	private KubernetesAuthProperties settings(List<String> audiences, int maxConcurrentReviews) throws IOException {
		Path token = Files.createTempFile("sa", "");
		Files.writeString(token, SERVICE_ACCOUNT);
		token.toFile().deleteOnExit();
		return new KubernetesAuthProperties(true, URI.create(this.kubernetes.url()), token, Path.of("/nonexistent"),
				"ns", "slotkeeper.io", "slots", Duration.ofSeconds(30), Duration.ofSeconds(2), audiences,
				maxConcurrentReviews);
	}

	private static List<String> roles(Authentication authentication) {
		return authentication.getAuthorities().stream().map(GrantedAuthority::getAuthority).toList();
	}

}
