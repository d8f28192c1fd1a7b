package io.slotkeeper.settings;

import java.time.Duration;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.test.web.servlet.client.RestTestClient;

import io.slotkeeper.SlotKeeperApplication;
import io.slotkeeper.security.TokenHashes;
import io.slotkeeper.testbed.PostgresServer;
import io.slotkeeper.testbed.PostgresTestBed;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A server configured against its slots gets each finding in words, over the API and as a
 * metric, and a finding goes once the setting is fixed — on a real server set up as an
 * owner who is not our friend would leave it.
 */
@Tag("pg-compat")
@Tag("pg-each")
class SettingsAuditTests {

	private static final String TOKEN = "settings-viewer-token";

	private static final JsonMapper json = JsonMapper.builder().build();

	private static PostgresServer server;

	private static ConfigurableApplicationContext app;

	private static RestTestClient client;

	@BeforeAll
	static void start() {
		server = PostgresTestBed.dedicated(Map.of("wal_sender_timeout", "5s", "max_replication_slots", "4"));
		server.execute("postgres", "CREATE DATABASE app");
		for (int i = 0; i < 4; i++) {
			server.execute("app", "SELECT pg_create_logical_replication_slot('cdc_" + i + "', 'pgoutput')");
		}
		if (server.majorVersion() >= 17) {
			// The setting names a standby's slot that existed when it was set, as after a
			// standby was retired.
			server.execute("postgres", "SELECT pg_drop_replication_slot('cdc_3')",
					"SELECT pg_create_physical_replication_slot('standby_1')",
					"ALTER SYSTEM SET synchronized_standby_slots = 'standby_1'", "SELECT pg_reload_conf()");
			server.execute("postgres", "SELECT pg_drop_replication_slot('standby_1')",
					"SELECT pg_create_logical_replication_slot('cdc_3', 'pgoutput')");
		}
		if (server.majorVersion() >= 18) {
			server.execute("postgres", "ALTER SYSTEM SET idle_replication_slot_timeout = '10min'",
					"SELECT pg_reload_conf()");
		}
		app = new SpringApplicationBuilder(SlotKeeperApplication.class).run("--server.port=0",
				"--slotkeeper.targets[0].name=app", "--slotkeeper.targets[0].url=" + server.jdbcUrl("app"),
				"--slotkeeper.targets[0].username=" + server.user(),
				"--slotkeeper.targets[0].password=" + server.password(),
				"--slotkeeper.targets[0].slots-poll-interval=200ms", "--slotkeeper.targets[0].heartbeat.enabled=false",
				"--slotkeeper.api.tokens[0].name=viewer", "--slotkeeper.api.tokens[0].role=viewer",
				"--slotkeeper.api.tokens[0].sha256=" + TokenHashes.sha256Hex(TOKEN), "--logging.level.root=WARN");
		client = RestTestClient.bindToServer()
			.baseUrl("http://localhost:" + app.getEnvironment().getProperty("local.server.port"))
			.build();
	}

	@AfterAll
	static void stop() {
		if (app != null) {
			app.close();
		}
		if (server != null) {
			server.close();
		}
	}

	@Test
	void everyRiskySettingIsAFindingInWordsAndAMetric() {
		JsonNode audit = await().atMost(Duration.ofSeconds(20))
			.ignoreExceptions()
			.until(SettingsAuditTests::audit, (read) -> read.get("walBytesPerSecond").isNumber()
					&& "-1".equals(read.get("settings").get("max_slot_wal_keep_size").asString()));
		System.out.println("settings audit on PostgreSQL " + server.majorVersion() + ": " + audit);
		assertThat(audit.get("settings").get("wal_level").asString()).isEqualTo("logical");
		assertThat(audit.get("slotsInUse").asInt()).isEqualTo(4);
		assertThat(finding(audit, "max_slot_wal_keep_size")).containsEntry("severity", "warning")
			.extractingByKey("message")
			.asString()
			.startsWith("unlimited: a consumer that stops");
		assertThat(finding(audit, "wal_sender_timeout")).containsEntry("severity", "warning")
			.containsEntry("value", "5000ms")
			.extractingByKey("message")
			.asString()
			.contains("shorter than twice the 10 s");
		assertThat(finding(audit, "max_replication_slots")).containsEntry("severity", "critical")
			.extractingByKey("message")
			.asString()
			.startsWith("4 of 4 replication slots in use: a new connector cannot create its slot");
		if (server.majorVersion() >= 17) {
			assertThat(finding(audit, "synchronized_standby_slots")).containsEntry("severity", "critical")
				.extractingByKey("message")
				.asString()
				.startsWith("names standby_1, which is not a valid physical slot");
		}
		if (server.majorVersion() >= 18) {
			assertThat(finding(audit, "idle_replication_slot_timeout")).containsEntry("severity", "critical")
				.extractingByKey("message")
				.asString()
				.contains("10 min (reason idle_timeout)");
		}
		else {
			assertThat(audit.get("settings").has("idle_replication_slot_timeout")).isFalse();
		}
		assertThat(audit.get("findings").get(0).get("severity").asString()).isEqualTo("critical");
		assertThat(scrape()).contains("slotkeeper_server_setting_findings{setting=\"wal_sender_timeout\","
				+ "severity=\"warning\",target=\"app\"} 1.0");
	}

	// The other test reads the server's defaults: it waits for this one's reset to be
	// read.
	@Test
	void aKeepSizeTooSmallForTheMeasuredWalRateIsNamedWithTheFigures() {
		server.execute("postgres", "ALTER SYSTEM SET max_slot_wal_keep_size = '64MB'", "SELECT pg_reload_conf()");
		try {
			server.execute("app", "CREATE TABLE IF NOT EXISTS churn (id bigserial, pad text)");
			JsonNode audit = await().atMost(Duration.ofSeconds(30)).ignoreExceptions().until(() -> {
				server.execute("app", "INSERT INTO churn (pad) SELECT repeat('x', 500) FROM generate_series(1, 2000)");
				return audit();
			}, (read) -> finding(read, "max_slot_wal_keep_size").get("message").startsWith("holds about"));
			double rate = audit.get("walBytesPerSecond").asDouble();
			assertThat(rate).isPositive();
			assertThat(finding(audit, "max_slot_wal_keep_size")).containsEntry("value", "64MB")
				.extractingByKey("message")
				.asString()
				.contains("an outage of 1 h (the target's loss-warning) needs");
			// An inactive slot's budget: its safe_wal_size at the server's rate, and how
			// long its consumer is gone.
			JsonNode budget = await().atMost(Duration.ofSeconds(10))
				.ignoreExceptions()
				.until(() -> slot("cdc_0").get("budget"), (read) -> read.get("secondsLeft").isNumber());
			System.out.println("outage budget of an inactive slot: " + budget);
			assertThat(budget.get("goneSeconds").asLong()).isNotNegative();
			assertThat(budget.get("inactiveSince").isString()).isTrue();
			double left = budget.get("safeWalSizeBytes").asDouble() / budget.get("walBytesPerSecond").asDouble();
			assertThat(budget.get("secondsLeft").asDouble()).isCloseTo(left, org.assertj.core.data.Offset.offset(0.01));
			assertThat(scrape())
				.contains("slotkeeper_slot_outage_budget_seconds{database=\"app\",lineage=\"1\",slot=\"cdc_0\",");
		}
		finally {
			server.execute("postgres", "ALTER SYSTEM RESET max_slot_wal_keep_size", "SELECT pg_reload_conf()");
		}
	}

	@Test
	void anUnknownTargetIs404AndNoTokenIs401() {
		client.get()
			.uri("/api/v1/targets/nowhere/settings")
			.header("Authorization", "Bearer " + TOKEN)
			.exchange()
			.expectStatus()
			.isNotFound();
		client.get().uri("/api/v1/targets/app/settings").exchange().expectStatus().isUnauthorized();
	}

	// 503 until the target's first good poll: the waits above ignore it, whichever test
	// runs first.
	private static JsonNode audit() {
		return json.readTree(client.get()
			.uri("/api/v1/targets/app/settings")
			.header("Authorization", "Bearer " + TOKEN)
			.exchange()
			.expectStatus()
			.isOk()
			.returnResult(String.class)
			.getResponseBody());
	}

	private static JsonNode slot(String name) {
		JsonNode listing = json.readTree(client.get()
			.uri("/api/v1/targets/app/slots")
			.header("Authorization", "Bearer " + TOKEN)
			.exchange()
			.expectStatus()
			.isOk()
			.returnResult(String.class)
			.getResponseBody());
		return listing.valueStream()
			.filter((slot) -> name.equals(slot.get("slotName").asString()))
			.findFirst()
			.orElseThrow();
	}

	private static Map<String, String> finding(JsonNode audit, String setting) {
		List<Map<String, String>> found = audit.get("findings")
			.valueStream()
			.filter((finding) -> setting.equals(finding.get("setting").asString()))
			.map((finding) -> Map.of("severity", finding.get("severity").asString(), "value",
					finding.get("value").asString(), "message", finding.get("message").asString()))
			.toList();
		return found.isEmpty() ? Map.of("severity", "", "value", "", "message", "") : found.get(0);
	}

	private static String scrape() {
		return client.get()
			.uri("/actuator/prometheus")
			.exchange()
			.expectStatus()
			.isOk()
			.returnResult(String.class)
			.getResponseBody();
	}

}
