package io.slotkeeper.overview;

import java.io.IOException;
import java.time.Duration;
import java.util.List;

import com.jayway.jsonpath.JsonPath;
import org.junit.jupiter.api.Test;

import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.http.MediaType;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import org.springframework.test.web.servlet.client.RestTestClient;

import io.slotkeeper.testbed.PostgresServer;
import io.slotkeeper.testbed.RefusedPort;
import io.slotkeeper.testbed.SlotRecipes;
import io.slotkeeper.testbed.TestTokens;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The overview and the slot history against a real server (max_slot_wal_keep_size 1 MB)
 * seen by two targets, and a third target on a port nobody listens on.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
class FleetOverviewTests {

	private static final String VIEWER = "overview-viewer-token";

	private static final String OPERATOR = "overview-operator-token";

	private static final String DATABASE = "ov";

	private static PostgresServer server;

	@LocalServerPort
	int port;

	static synchronized PostgresServer server() {
		if (server == null) {
			server = SlotRecipes.lossyServer(DATABASE);
		}
		return server;
	}

	@DynamicPropertySource
	static void properties(DynamicPropertyRegistry registry) throws IOException {
		int dead = RefusedPort.PORT;
		String[] names = { "alpha", "beta" };
		for (int i = 0; i < names.length; i++) {
			String prefix = "slotkeeper.targets[" + i + "].";
			String name = names[i];
			registry.add(prefix + "name", () -> name);
			registry.add(prefix + "url", () -> server().jdbcUrl(DATABASE));
			registry.add(prefix + "username", () -> server().user());
			registry.add(prefix + "heartbeat.interval", () -> "300ms");
			registry.add(prefix + "slots-poll-interval", () -> "200ms");
		}
		int port = dead;
		registry.add("slotkeeper.targets[2].name", () -> "zulu-dead");
		registry.add("slotkeeper.targets[2].url", () -> "jdbc:postgresql://127.0.0.1:" + port + "/nothing");
		registry.add("slotkeeper.targets[2].username", () -> "nobody");
		registry.add("slotkeeper.targets[2].heartbeat.interval", () -> "200ms");
		registry.add("slotkeeper.targets[2].slots-poll-interval", () -> "200ms");
		TestTokens.register(registry, VIEWER, OPERATOR);
	}

	@Test
	void aDownTargetComesFirstAndTheCountsCoverTheWholeFleet() {
		await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> {
			String body = overview("");
			assertThat(JsonPath.<String>read(body, "$.targets[0].name")).isEqualTo("zulu-dead");
			assertThat(JsonPath.<String>read(body, "$.targets[0].severity")).isEqualTo("down");
			assertThat(JsonPath.<List<String>>read(body, "$.targets[0].problems"))
				.anyMatch((problem) -> problem.startsWith("heartbeat DOWN: "));
			assertThat(JsonPath.<Integer>read(body, "$.counts.targets")).isEqualTo(3);
			assertThat(JsonPath.<Integer>read(body, "$.counts.targetsDown")).isGreaterThanOrEqualTo(1);
		});
	}

	@Test
	void aLostSlotIsDownWithItsReasonInWordsWhileTheWholeListingNeverQueriesTheDeadTarget() {
		server().execute(DATABASE, "SELECT pg_create_logical_replication_slot('ov_lost', 'pgoutput')");
		SlotRecipes.lose(server(), DATABASE, "ov_lost");
		try {
			await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> {
				String body = overview("search=alpha");
				assertThat(JsonPath.<List<String>>read(body, "$.targets[0].slots[?(@.name == 'ov_lost')].severity"))
					.containsExactly("down");
				assertThat(
						JsonPath.<List<List<String>>>read(body, "$.targets[0].slots[?(@.name == 'ov_lost')].problems")
							.get(0))
					.contains("ov_lost was invalidated by the server (wal_removed): it can never be read again "
							+ "(recreate it)");
				assertThat(JsonPath.<String>read(body, "$.targets[0].severity")).isEqualTo("down");
			});
		}
		finally {
			server().execute(DATABASE, "SELECT pg_drop_replication_slot('ov_lost')");
		}
	}

	@Test
	void pagesSearchAndProblemsOnlyPickTheTargets() {
		String second = overview("size=1&page=1");
		assertThat(JsonPath.<Integer>read(second, "$.matching")).isEqualTo(3);
		assertThat(JsonPath.<Integer>read(second, "$.pages")).isEqualTo(3);
		assertThat(JsonPath.<List<?>>read(second, "$.targets")).hasSize(1);
		assertThat(JsonPath.<List<String>>read(overview("search=ALP"), "$.targets[*].name")).containsExactly("alpha");
		assertThat(JsonPath.<List<String>>read(overview("page=7"), "$.targets")).isEmpty();
		await().atMost(Duration.ofSeconds(30))
			.untilAsserted(() -> assertThat(
					JsonPath.<List<String>>read(overview("problemsOnly=true"), "$.targets[*].severity"))
				.isNotEmpty()
				.doesNotContain("ok"));
	}

	@Test
	void theHistoryHoldsTheMostWalEachStepRetained() {
		server().execute(DATABASE, "SELECT pg_create_logical_replication_slot('ov_history', 'pgoutput')");
		try {
			server().execute(DATABASE, "INSERT INTO orders (item) SELECT 'x' FROM generate_series(1, 500)");
			long retained = Long.parseLong(server().queryForString("postgres", "SELECT pg_current_wal_lsn() - "
					+ "restart_lsn FROM pg_replication_slots WHERE slot_name = 'ov_history'"));
			await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> {
				String body = viewer().get()
					.uri("/api/v1/targets/beta/slots/ov_history/history")
					.exchange()
					.expectStatus()
					.isOk()
					.returnResult(String.class)
					.getResponseBody();
				assertThat(JsonPath.<Integer>read(body, "$.stepSeconds")).isEqualTo(30);
				List<Number> points = JsonPath.read(body, "$.retainedWalBytes");
				assertThat(points.get(points.size() - 1).longValue()).isGreaterThanOrEqualTo(retained);
			});
			String withHistory = overview("search=beta&history=true");
			assertThat(JsonPath.<List<Object>>read(withHistory,
					"$.targets[0].slots[?(@.name == 'ov_history')].history.retainedWalBytes"))
				.hasSize(1);
			assertThat(JsonPath.<List<Object>>read(overview("search=beta"),
					"$.targets[0].slots[?(@.name == 'ov_history')].history"))
				.containsExactly((Object) null);
		}
		finally {
			server().execute(DATABASE, "SELECT pg_drop_replication_slot('ov_history')");
		}
		viewer().get()
			.uri("/api/v1/targets/beta/slots/never_there/history")
			.exchange()
			.expectStatus()
			.isNotFound()
			.expectHeader()
			.contentTypeCompatibleWith(MediaType.APPLICATION_PROBLEM_JSON);
	}

	@Test
	void badQueriesAreProblemsAndTheOverviewNeedsAToken() {
		for (String query : List.of("size=0", "size=501", "page=-1", "search=a%20b", "search=%27%3B")) {
			viewer().get()
				.uri("/api/v1/overview?" + query)
				.exchange()
				.expectStatus()
				.isBadRequest()
				.expectHeader()
				.contentTypeCompatibleWith(MediaType.APPLICATION_PROBLEM_JSON);
		}
		RestTestClient.bindToServer()
			.baseUrl("http://localhost:" + this.port)
			.build()
			.get()
			.uri("/api/v1/overview")
			.exchange()
			.expectStatus()
			.isUnauthorized();
	}

	@Test
	void meSaysTheTokensNameAndRoleAndNeverTheToken() {
		String viewer = viewer().get()
			.uri("/api/v1/me")
			.exchange()
			.expectStatus()
			.isOk()
			.returnResult(String.class)
			.getResponseBody();
		assertThat(JsonPath.<String>read(viewer, "$.name")).isEqualTo("dashboard");
		assertThat(JsonPath.<String>read(viewer, "$.role")).isEqualTo("viewer");
		assertThat(viewer).doesNotContain(VIEWER);
		assertThat(JsonPath.<String>read(operator().get()
			.uri("/api/v1/me")
			.exchange()
			.expectStatus()
			.isOk()
			.returnResult(String.class)
			.getResponseBody(), "$.role")).isEqualTo("operator");
	}

	@Test
	void aHeartbeatDryRunSaysWhatItWouldWriteAndBothCallsAreAudited() {
		String plan = operator().post()
			.uri("/api/v1/targets/alpha/heartbeat?dryRun=true")
			.exchange()
			.expectStatus()
			.isOk()
			.returnResult(String.class)
			.getResponseBody();
		assertThat(JsonPath.<Boolean>read(plan, "$.dryRun")).isTrue();
		assertThat(JsonPath.<List<String>>read(plan, "$.steps"))
			.anyMatch((step) -> step.contains("pg_logical_emit_message"));
		viewer().post().uri("/api/v1/targets/alpha/heartbeat?dryRun=true").exchange().expectStatus().isForbidden();
		String audit = viewer().get()
			.uri("/api/v1/audit")
			.exchange()
			.expectStatus()
			.isOk()
			.returnResult(String.class)
			.getResponseBody();
		assertThat(JsonPath.<List<String>>read(audit,
				"$[?(@.action == 'heartbeat' && @.target == 'alpha' && @.actor == 'ci')].outcome"))
			.contains("dry-run");
		operator().post().uri("/api/v1/targets/alpha/heartbeat").exchange().expectStatus().isOk();
		String after = viewer().get()
			.uri("/api/v1/audit")
			.exchange()
			.expectStatus()
			.isOk()
			.returnResult(String.class)
			.getResponseBody();
		assertThat(JsonPath.<List<String>>read(after, "$[?(@.action == 'heartbeat' && @.target == 'alpha')].outcome"))
			.contains("done");
	}

	private String overview(String query) {
		return viewer().get()
			.uri("/api/v1/overview?" + query)
			.exchange()
			.expectStatus()
			.isOk()
			.returnResult(String.class)
			.getResponseBody();
	}

	private RestTestClient viewer() {
		return client(VIEWER);
	}

	private RestTestClient operator() {
		return client(OPERATOR);
	}

	private RestTestClient client(String token) {
		return RestTestClient.bindToServer()
			.baseUrl("http://localhost:" + this.port)
			.defaultHeader("Authorization", "Bearer " + token)
			.build();
	}

}
