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
import io.slotkeeper.testbed.Scrape;

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
		try (ConfigurableApplicationContext context = run(rendered, config)) {
			RestTestClient client = client(context, "local.server.port");
			RestTestClient management = client(context, "local.management.port");
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
			Set<String> used = usedMetrics(rendered);
			assertThat(used).contains("slotkeeper_heartbeat_consecutive_failures", "slotkeeper_slot_retained_wal_bytes",
					"slotkeeper_slot_wal_status", "slotkeeper_heartbeat_interval_seconds");
			await().atMost(Duration.ofSeconds(15)).untilAsserted(() -> {
				String scrape = Scrape.of(management);
				assertThat(used).allSatisfy((name) -> assertThat(scrape).as("the scrape exports %s", name)
					.containsPattern("(?m)^" + Pattern.quote(name) + "[{ ]"));
			});
		}
		finally {
			connect.close();
			postgres.close();
		}
	}

	@Test
	void aPlainInstallationExportsEveryMetricItsAlertsAndDashboardNameForEachTargetAndSlotBeforeAnythingHappened(
			@TempDir Path config) throws Exception {
		// Nothing acts: no connector, no re-snapshot, no restart, no finding but those
		// the
		// defaults give; one target configured, one database of a server, each with a
		// replica (the server itself: the per-replica metrics need one to concern).
		PostgresServer postgres = PostgresTestBed.shared();
		String configured = postgres.createDatabase();
		String listed = postgres.createDatabase();
		postgres.execute(configured, "SELECT pg_create_logical_replication_slot('plain_slot', 'pgoutput')");
		postgres.execute(listed, "SELECT pg_create_logical_replication_slot('listed_slot', 'pgoutput')");
		HelmChart.Rendered rendered = HelmChart.render(HelmChart.CHART.resolve("ci/monitoring-values.yaml"),
				(command) -> command.set("targets[0].url", postgres.jdbcUrl(configured))
					.set("targets[0].username", postgres.user())
					.set("targets[0].slotsPollInterval", "200ms")
					.set("targets[0].slots[0].name", "plain_slot")
					.set("targets[0].replicas[0].name", "self")
					.set("targets[0].replicas[0].url", postgres.jdbcUrl(configured))
					.set("targets[0].replicas[0].username", postgres.user())
					.set("servers[0].name", "plain-server")
					.set("servers[0].url", postgres.jdbcUrl("postgres"))
					.set("servers[0].username", postgres.user())
					.set("servers[0].slotsPollInterval", "200ms")
					.set("servers[0].databases[0]", listed)
					.set("servers[0].overrides[0].name", listed)
					.set("servers[0].overrides[0].slots[0].name", "listed_slot")
					.set("servers[0].replicas[0].name", "self")
					.set("servers[0].replicas[0].url", postgres.jdbcUrl("postgres")));
		String discovered = "plain-server-" + listed.replace("_", "-");
		Set<String> used = usedMetrics(rendered);
		try (ConfigurableApplicationContext context = run(rendered, config)) {
			RestTestClient management = client(context, "local.management.port");
			await().atMost(Duration.ofSeconds(20)).untilAsserted(() -> {
				String scrape = Scrape.of(management);
				assertThat(used).allSatisfy((name) -> {
					List<String> series = series(scrape, name);
					assertThat(series).as("the scrape exports %s", name).isNotEmpty();
					if (series.stream().anyMatch((one) -> one.contains("target=\""))) {
						assertThat(series).as("%s for each target", name)
							.anyMatch((one) -> one.contains("target=\"orders\""))
							.anyMatch((one) -> one.contains("target=\"" + discovered + "\""));
					}
					if (series.stream().anyMatch((one) -> one.contains("slot=\""))) {
						assertThat(series).as("%s for each slot", name)
							.anyMatch((one) -> one.contains("slot=\"plain_slot\""))
							.anyMatch((one) -> one.contains("slot=\"listed_slot\""));
					}
					if (series.stream().anyMatch((one) -> one.contains("server=\""))) {
						assertThat(series).as("%s for the server", name)
							.anyMatch((one) -> one.contains("server=\"plain-server\""));
					}
				});
			});
		}
	}

	// The values the Deployment's secretKeyRefs would feed, under the same variable
	// names.
	// Plain text logs: JSON console logs would stay on for the rest of this test JVM
	// (StructuredLogsTests runs the rendered format in a process of its own).
	private static ConfigurableApplicationContext run(HelmChart.Rendered rendered, Path config) throws Exception {
		Files.writeString(config.resolve("application.yaml"), rendered.applicationYaml());
		return new SpringApplicationBuilder(SlotKeeperApplication.class).run("--logging.structured.format.console=",
				"--server.port=0", "--management.server.port=0",
				"--spring.config.additional-location=file:" + config + "/", "--SK_TARGET_0_PASSWORD=orders-password",
				"--SK_SERVER_0_PASSWORD=server-password", "--SK_CONNECT_0_PASSWORD=connect-password",
				"--SK_TOKEN_0_SHA256=" + TokenHashes.sha256Hex("token-dash"));
	}

	private static RestTestClient client(ConfigurableApplicationContext context, String port) {
		return RestTestClient.bindToServer()
			.baseUrl("http://localhost:" + context.getEnvironment().getProperty(port))
			.build();
	}

	// The series of one metric in a scrape, each line from its name to its value.
	private static List<String> series(String scrape, String name) {
		return scrape.lines().filter((line) -> line.startsWith(name + "{") || line.startsWith(name + " ")).toList();
	}

	// Every metric name the rendered PrometheusRule and Grafana dashboard use.
	private static Set<String> usedMetrics(HelmChart.Rendered rendered) {
		return metricNames(rendered.one("PrometheusRule").toString() + rendered.ofKind("ConfigMap")
			.stream()
			.map((map) -> String.valueOf((Object) get(map, "data", "slot-keeper.json")))
			.reduce("", String::concat));
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
