package io.slotkeeper.security.cluster;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import com.jayway.jsonpath.JsonPath;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.openqa.selenium.By;

import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.http.MediaType;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import org.springframework.test.web.servlet.client.RestTestClient;

import io.slotkeeper.testbed.Browser;
import io.slotkeeper.testbed.KubernetesStub;
import io.slotkeeper.testbed.PostgresServer;
import io.slotkeeper.testbed.SlotRecipes;
import io.slotkeeper.testbed.TestTokens;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Sign-in with the caller's own cluster token against a stand-in of the Kubernetes API
 * server's review APIs, on a real server: roles from RBAC grants, the audit naming the
 * cluster user, 503 for cluster tokens (and 200 for static ones) while the API server is
 * gone, answers reused within the cache's time, and no token anywhere it should not be.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
@ExtendWith(OutputCaptureExtension.class)
class ClusterSignInTests {

	private static final String SERVICE_ACCOUNT_TOKEN = "sa-token-of-slot-keeper";

	private static final String STATIC_VIEWER = "static-viewer-token";

	private static final String DATABASE = "cluster";

	private static KubernetesStub kubernetes;

	private static PostgresServer server;

	@LocalServerPort
	int port;

	static synchronized KubernetesStub kubernetes() {
		if (kubernetes == null) {
			kubernetes = new KubernetesStub(SERVICE_ACCOUNT_TOKEN, "slots-ns", "slotkeeper.io", "slots");
			kubernetes.user("vera-token-1", "vera", List.of("sre-readers", "system:authenticated"), "get");
			kubernetes.user("olga-token-1", "olga", List.of("sre", "system:authenticated"), "get", "update", "delete");
			kubernetes.user("nobody-token-1", "nobody", List.of("system:authenticated"));
			Runtime.getRuntime().addShutdownHook(new Thread(kubernetes::close));
		}
		return kubernetes;
	}

	static synchronized PostgresServer server() {
		if (server == null) {
			server = SlotRecipes.lossyServer(DATABASE);
		}
		return server;
	}

	@DynamicPropertySource
	static void properties(DynamicPropertyRegistry registry) throws IOException {
		Path tokenFile = Files.createTempFile("sa-token", "");
		Files.writeString(tokenFile, SERVICE_ACCOUNT_TOKEN + "\n");
		tokenFile.toFile().deleteOnExit();
		registry.add("slotkeeper.targets[0].name", () -> "orders");
		registry.add("slotkeeper.targets[0].url", () -> server().jdbcUrl(DATABASE));
		registry.add("slotkeeper.targets[0].username", () -> server().user());
		registry.add("slotkeeper.targets[0].heartbeat.interval", () -> "1s");
		registry.add("slotkeeper.targets[0].slots-poll-interval", () -> "300ms");
		registry.add("slotkeeper.api.kubernetes.enabled", () -> "true");
		registry.add("slotkeeper.api.kubernetes.api-server", () -> kubernetes().url());
		registry.add("slotkeeper.api.kubernetes.service-account-token-file", tokenFile::toString);
		registry.add("slotkeeper.api.kubernetes.namespace", () -> "slots-ns");
		registry.add("slotkeeper.api.kubernetes.timeout", () -> "2s");
		TestTokens.register(registry, STATIC_VIEWER, "static-operator-token");
	}

	@Test
	void aClusterViewerReadsButMayNotChange() {
		client("vera-token-1").get().uri("/api/v1/targets").exchange().expectStatus().isOk();
		client("vera-token-1").post()
			.uri("/api/v1/targets/orders/heartbeat")
			.exchange()
			.expectStatus()
			.isForbidden()
			.expectHeader()
			.contentTypeCompatibleWith(MediaType.APPLICATION_PROBLEM_JSON);
		String me = body(client("vera-token-1").get().uri("/api/v1/me"));
		assertThat(JsonPath.<String>read(me, "$.name")).isEqualTo("vera");
		assertThat(JsonPath.<String>read(me, "$.role")).isEqualTo("viewer");
	}

	@Test
	void theOperatorPageTakesAClusterTokenTheSameWay() {
		try (Browser browser = Browser.start()) {
			browser.signIn("http://localhost:" + this.port + "/", "olga-token-1");
			await().atMost(Duration.ofSeconds(30))
				.until(() -> "Signed in as olga (operator)"
					.equals(browser.driver().executeScript("return document.getElementById('who').innerText")));
			await().atMost(Duration.ofSeconds(30))
				.until(() -> !browser.driver()
					.findElements(By.cssSelector("article[data-target='orders'] button"))
					.isEmpty());
			assertThat(browser.unexpectedProblems()).isEmpty();
		}
	}

	@Test
	void aClusterOperatorRecreatesALostSlotAndTheAuditNamesTheUserAndItsGroups() {
		server().execute(DATABASE, "SELECT pg_create_logical_replication_slot('cluster_lost', 'pgoutput')");
		SlotRecipes.lose(server(), DATABASE, "cluster_lost");
		String recreated = body(
				client("olga-token-1").post().uri("/api/v1/targets/orders/slots/cluster_lost/recreate"));
		assertThat(JsonPath.<String>read(recreated, "$.newSlot.walStatus")).isEqualTo("reserved");
		String audit = body(client("olga-token-1").get().uri("/api/v1/audit"));
		assertThat(JsonPath.<List<List<String>>>read(audit,
				"$[?(@.action == 'slot.recreate' && @.slot == 'cluster_lost' && @.outcome == 'done')].actorGroups"))
			.singleElement()
			.asInstanceOf(org.assertj.core.api.InstanceOfAssertFactories.LIST)
			.contains("sre");
		assertThat(JsonPath.<List<String>>read(audit,
				"$[?(@.action == 'slot.recreate' && @.slot == 'cluster_lost' && @.outcome == 'done')].actor"))
			.containsExactly("olga");
	}

	@Test
	void aTokenTheApiServerDoesNotAuthenticateIs401AndAUserWithoutGrantsIs403() {
		client("made-up-token").get()
			.uri("/api/v1/targets")
			.exchange()
			.expectStatus()
			.isUnauthorized()
			.expectHeader()
			.contentTypeCompatibleWith(MediaType.APPLICATION_PROBLEM_JSON);
		client("nobody-token-1").get().uri("/api/v1/targets").exchange().expectStatus().isForbidden();
	}

	@Test
	void whileTheApiServerIsGoneClusterTokensAre503AndStaticTokensStillWork() {
		kubernetes().user("ursula-token-1", "ursula", List.of("sre"), "get");
		kubernetes().unreachable(true);
		try {
			String problem = new String(client("ursula-token-1").get()
				.uri("/api/v1/targets")
				.exchange()
				.expectStatus()
				.isEqualTo(503)
				.expectHeader()
				.contentTypeCompatibleWith(MediaType.APPLICATION_PROBLEM_JSON)
				.expectBody()
				.returnResult()
				.getResponseBodyContent(), java.nio.charset.StandardCharsets.UTF_8);
			assertThat(JsonPath.<String>read(problem, "$.type"))
				.isEqualTo("urn:slotkeeper:problem:sign-in-unavailable");
			assertThat(JsonPath.<String>read(problem, "$.detail")).contains("unreachable")
				.doesNotContain("ursula-token");
			client(STATIC_VIEWER).get().uri("/api/v1/targets").exchange().expectStatus().isOk();
		}
		finally {
			kubernetes().unreachable(false);
		}
		client("ursula-token-1").get().uri("/api/v1/targets").exchange().expectStatus().isOk();
	}

	@Test
	void answersAreReusedWithinTheCacheTimeAndNoTokenShowsInLogsOrAnswers(CapturedOutput output) {
		List<Long> cold = new ArrayList<>();
		List<Long> cached = new ArrayList<>();
		for (int i = 0; i < 20; i++) {
			String token = "carl-token-" + i;
			kubernetes().user(token, "carl" + i, List.of("sre"), "get", "update", "delete");
			int reviews = kubernetes().tokenReviews();
			long start = System.nanoTime();
			String first = body(client(token).get().uri("/api/v1/me"));
			cold.add(System.nanoTime() - start);
			start = System.nanoTime();
			String second = body(client(token).get().uri("/api/v1/me"));
			cached.add(System.nanoTime() - start);
			assertThat(kubernetes().tokenReviews()).as("one review, then the cached answer").isEqualTo(reviews + 1);
			assertThat(first).isEqualTo(second).contains("\"role\":\"operator\"").doesNotContain(token);
		}
		long staticStart = System.nanoTime();
		for (int i = 0; i < 20; i++) {
			body(client(STATIC_VIEWER).get().uri("/api/v1/me"));
		}
		long staticMicros = (System.nanoTime() - staticStart) / 20 / 1000;
		assertThat(output.getAll()).doesNotContain("carl-token-").doesNotContain(SERVICE_ACCOUNT_TOKEN);
		assertThat(kubernetes().bodies()).filteredOn((body) -> body.contains("SubjectAccessReview"))
			.allSatisfy((body) -> assertThat(body).doesNotContain("-token-"));
		System.out.printf("%nCluster sign-in, GET /api/v1/me over loopback to a local API server stand-in, 20 tokens:"
				+ "%n  cold (TokenReview + SubjectAccessReviews): p50 %d us, max %d us%n  cached: p50 %d us, max %d us"
				+ "%n  static token: %d us on average%n%n", micros(cold, 50), micros(cold, 100), micros(cached, 50),
				micros(cached, 100), staticMicros);
	}

	@Test
	void aFloodOfMadeUpTokensIsRefusedAtOnceWhileStaticTokensKeepAnswering() throws Exception {
		int reviewsBefore = kubernetes().tokenReviews();
		// Each review waits 1 s, within slot-keeper's 2 s timeout: every one waiting
		// there is one it waits for.
		kubernetes().holdFor(Duration.ofMillis(1000), true);
		java.util.concurrent.ExecutorService callers = java.util.concurrent.Executors.newFixedThreadPool(200);
		try {
			List<java.util.concurrent.Future<Integer>> flood = new ArrayList<>();
			for (int i = 0; i < 200; i++) {
				String bogus = "flood-token-" + i;
				flood.add(callers.submit(() -> status(bogus)));
			}
			await().atMost(Duration.ofSeconds(30)).until(() -> kubernetes().held() > 0);
			List<Long> staticNanos = new ArrayList<>();
			for (int i = 0; i < 20; i++) {
				long start = System.nanoTime();
				assertThat(status(STATIC_VIEWER)).isEqualTo(200);
				staticNanos.add(System.nanoTime() - start);
			}
			List<Integer> answers = flood.stream().map(ClusterSignInTests::get).toList();
			int reviewed = kubernetes().tokenReviews() - reviewsBefore;
			assertThat(answers).as("refused at once (503), or reviewed: unknown (401) or too slow (503)")
				.hasSize(200)
				.containsOnly(503, 401);
			assertThat(kubernetes().maxHeld()).as("reviews at the API server at once").isBetween(1, 8);
			assertThat(reviewed).as("made-up tokens refused without a review").isLessThan(100);
			System.out.printf("%nStatic token during a flood of 200 made-up cluster tokens (each review held 1 s at the"
					+ " API server; %d reviews sent, at most %d at once, the other %d refused at once): p50 %d us, max %d us"
					+ " over 20 calls%n%n", reviewed, kubernetes().maxHeld(), 200 - reviewed, micros(staticNanos, 50),
					micros(staticNanos, 100));
		}
		finally {
			kubernetes().hold(false);
			callers.shutdown();
		}
	}

	@Test
	void oneTokenAskedForManyTimesAtOnceIsReviewedOnce() throws Exception {
		kubernetes().user("paula-token-1", "paula", List.of("sre"), "get");
		int reviews = kubernetes().tokenReviews();
		kubernetes().hold(true);
		java.util.concurrent.ExecutorService callers = java.util.concurrent.Executors.newFixedThreadPool(20);
		try {
			List<java.util.concurrent.Future<Integer>> calls = new ArrayList<>();
			for (int i = 0; i < 20; i++) {
				calls.add(callers.submit(() -> status("paula-token-1")));
			}
			await().atMost(Duration.ofSeconds(30)).until(() -> kubernetes().held() == 1);
			kubernetes().hold(false);
			assertThat(calls.stream().map(ClusterSignInTests::get)).containsOnly(200).hasSize(20);
			assertThat(kubernetes().tokenReviews()).isEqualTo(reviews + 1);
		}
		finally {
			kubernetes().hold(false);
			callers.shutdown();
		}
	}

	@Test
	void aTokenScopedToUserInfoMayNotChangeSlots() {
		kubernetes().scopedUser("oauth-proxy-token-1", "olga", List.of("sre"),
				java.util.Map.of("scopes.authorization.openshift.io", List.of("user:info")), "get", "update", "delete");
		client("oauth-proxy-token-1").post()
			.uri("/api/v1/targets/orders/heartbeat")
			.exchange()
			.expectStatus()
			.isForbidden();
		client("oauth-proxy-token-1").get().uri("/api/v1/targets").exchange().expectStatus().isForbidden();
	}

	private int status(String token) {
		return client(token).get().uri("/api/v1/me").exchange().returnResult().getStatus().value();
	}

	private static Integer get(java.util.concurrent.Future<Integer> future) {
		try {
			return future.get(60, java.util.concurrent.TimeUnit.SECONDS);
		}
		catch (Exception ex) {
			throw new IllegalStateException(ex);
		}
	}

	private static long micros(List<Long> nanos, int percent) {
		List<Long> sorted = nanos.stream().sorted().toList();
		return sorted.get(Math.min(sorted.size() - 1, (int) Math.ceil(percent / 100.0 * sorted.size()) - 1)) / 1000;
	}

	private static String body(RestTestClient.RequestHeadersSpec<?> request) {
		byte[] content = request.exchange().expectStatus().isOk().expectBody().returnResult().getResponseBodyContent();
		return new String(content, java.nio.charset.StandardCharsets.UTF_8);
	}

	private RestTestClient client(String token) {
		return RestTestClient.bindToServer()
			.baseUrl("http://localhost:" + this.port)
			.defaultHeader("Authorization", "Bearer " + token)
			.build();
	}

}
