package io.slotkeeper.deploy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.test.web.servlet.client.RestTestClient;

import io.slotkeeper.SlotKeeperApplication;
import io.slotkeeper.security.TokenHashes;
import io.slotkeeper.testbed.ConnectStub;
import io.slotkeeper.testbed.PostgresServer;
import io.slotkeeper.testbed.PostgresTestBed;

import static io.slotkeeper.deploy.HelmChart.get;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Keeps the chart and the application honest with each other: the application.yaml the
 * chart renders binds and validates in the real application, the probe paths answer 200,
 * and every metric the alerts and the dashboard use is one the application exports.
 */
class ChartAgainstApplicationTests {

	@Test
	void renderedConfigurationRunsTheApplicationWhichExportsEveryMetricTheChartUses(@TempDir Path config)
			throws Exception {
		// A server of its own, set so that what the settings alerts and the outage budget
		// read is exported: a sender
		// timeout the audit finds too short, and a WAL limit an inactive slot has a
		// budget against.
		PostgresServer postgres = PostgresTestBed
			.dedicated(Map.of("wal_sender_timeout", "5s", "max_slot_wal_keep_size", "1GB"));
		String database = postgres.createDatabase();
		String listed = postgres.createDatabase();
		postgres.execute(database, "SELECT pg_create_logical_replication_slot('chart_slot', 'pgoutput')");
		// A connector, so that the connectors' metrics are exported too.
		ConnectStub connect = new ConnectStub();
		HelmChart.Rendered rendered = HelmChart.render(HelmChart.CHART.resolve("ci/monitoring-values.yaml"),
				(command) -> command.set("targets[0].url", postgres.jdbcUrl(database))
					.set("targets[0].username", postgres.user())
					.set("targets[0].heartbeat.interval", "200ms")
					.set("targets[0].slotsPollInterval", "200ms")
					.set("targets[0].slots[0].name", "chart_slot")
					.set("targets[0].slots[0].connector.url", connect.url())
					.set("targets[0].slots[0].connector.name", "chart-connector")
					// Failed connectors restarted: their counters are exported at 0
					// before the first.
					.set("targets[0].slots[0].onFailed", "restart")
					// A re-snapshot asked for: its counters are exported at 0 before the
					// first.
					.set("targets[0].slots[0].resnapshot.mode", "debezium-signal")
					// The server again as its own "replica": its failover readiness is
					// exported, and never ready.
					.set("targets[0].replicas[0].name", "self")
					.set("targets[0].replicas[0].url", postgres.jdbcUrl(database))
					.set("targets[0].replicas[0].username", postgres.user())
					// A server configured once: its rendered settings and password bind;
					// it lists one database of
					// its own, as it would on a shared server holding other applications'
					// slots.
					.set("servers[0].name", "chart-server")
					.set("servers[0].url", postgres.jdbcUrl("postgres"))
					.set("servers[0].username", postgres.user())
					.set("servers[0].password", "server-password")
					.set("servers[0].databases[0]", listed)
					.set("servers[0].aliases[0]", "pg.chart.svc")
					// Connectors discovered from a Kafka Connect whose password comes
					// from the Secret.
					.set("connectors.discovery.kafkaConnect[0].name", "connect")
					.set("connectors.discovery.kafkaConnect[0].url", connect.url())
					.set("connectors.discovery.kafkaConnect[0].username", "connect")
					.set("connectors.discovery.kafkaConnect[0].password", "connect-password")
					// Cluster sign-in on as well: its rendered settings bind, and static
					// tokens still sign in first.
					.set("api.kubernetes.enabled", "true"));
		Files.writeString(config.resolve("application.yaml"), rendered.applicationYaml());
		// The values the Deployment's secretKeyRefs would feed, under the same variable
		// names.
		// Plain text here: JSON console logs would stay on for the rest of this test JVM
		// (StructuredLogsTests runs the
		// rendered format in a process of its own).
		try (ConfigurableApplicationContext context = new SpringApplicationBuilder(SlotKeeperApplication.class).run(
				"--logging.structured.format.console=", "--server.port=0", "--management.server.port=0",
				"--spring.config.additional-location=file:" + config + "/", "--SK_TARGET_0_PASSWORD=orders-password",
				"--SK_SERVER_0_PASSWORD=server-password", "--SK_CONNECT_0_PASSWORD=connect-password",
				"--SK_TOKEN_0_SHA256=" + TokenHashes.sha256Hex("token-dash"))) {
			RestTestClient client = RestTestClient.bindToServer()
				.baseUrl("http://localhost:" + context.getEnvironment().getProperty("local.server.port"))
				.build();
			RestTestClient management = RestTestClient.bindToServer()
				.baseUrl("http://localhost:" + context.getEnvironment().getProperty("local.management.port"))
				.build();
			client.get().uri("/actuator/health").exchange().expectStatus().isNotFound();
			client.get()
				.uri("/api/v1/targets")
				.header("Authorization", "Bearer token-dash")
				.exchange()
				.expectStatus()
				.isOk()
				.expectBody()
				.jsonPath("$[0].name")
				.isEqualTo("orders");
			await("the server's listed database joins").atMost(Duration.ofSeconds(15))
				.untilAsserted(() -> client.get()
					.uri("/api/v1/targets")
					.header("Authorization", "Bearer token-dash")
					.exchange()
					.expectBody()
					.jsonPath("$[1].name")
					.isEqualTo("chart-server-" + listed.replace("_", "-")));
			Map<String, Object> container = get(rendered.one("Deployment"), "spec", "template", "spec", "containers",
					0);
			for (String probe : List.of("startupProbe", "livenessProbe", "readinessProbe")) {
				management.get()
					.uri((String) get(container, probe, "httpGet", "path"))
					.exchange()
					.expectStatus()
					.isOk();
			}
			Set<String> used = metricNames(rendered.one("PrometheusRule").toString() + rendered.ofKind("ConfigMap")
				.stream()
				.map((map) -> String.valueOf((Object) get(map, "data", "slot-keeper.json")))
				.reduce("", String::concat));
			assertThat(used).contains("slotkeeper_heartbeat_consecutive_failures", "slotkeeper_slot_retained_wal_bytes",
					"slotkeeper_slot_wal_status", "slotkeeper_heartbeat_interval_seconds");
			await().atMost(Duration.ofSeconds(15)).untilAsserted(() -> {
				String scrape = new String(management.get()
					.uri("/actuator/prometheus")
					.exchange()
					.expectStatus()
					.isOk()
					.expectBody()
					.returnResult()
					.getResponseBodyContent());
				assertThat(used).allSatisfy((name) -> assertThat(scrape).as("the scrape exports %s", name)
					.containsPattern("(?m)^" + Pattern.quote(name) + "[{ ]"));
			});
		}
		finally {
			connect.close();
			postgres.close();
		}
	}

	private static Set<String> metricNames(String text) {
		Set<String> names = new TreeSet<>();
		// A name followed by ".*" is a label's pattern (the gap journal's copies of
		// slots),
		// not a metric.
		Matcher matcher = Pattern.compile("slotkeeper_[a-z0-9_]++(?!\\.\\*)").matcher(text);
		while (matcher.find()) {
			names.add(matcher.group());
		}
		return names;
	}

}
