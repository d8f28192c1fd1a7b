package io.slotkeeper.events;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;

import io.slotkeeper.SlotKeeperApplication;
import io.slotkeeper.audit.AuditJournal;
import io.slotkeeper.testbed.ConnectStub;
import io.slotkeeper.testbed.PostgresServer;
import io.slotkeeper.testbed.PostgresTestBed;
import io.slotkeeper.testbed.SlotRecipes;
import io.slotkeeper.testbed.StrimziOperator;
import io.slotkeeper.testbed.StrimziResources;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Kubernetes Events from the whole application, on the Kubernetes API stand-in with the
 * Strimzi operator's emulation: a heal of a slot whose connector is a
 * {@code KafkaConnector} leaves its story on that resource (with its uid, as
 * {@code oc describe} matches), in order; a slot without one leaves it on slot-keeper's
 * Pod; a loss again adds to the event's series; an API server that hangs delays no heal.
 */
class KubernetesEventsTests {

	private static final String TOKEN = "events-app-sa-token";

	private static final String POD_UID = "5f0c3e2a-1b7d-4c1e-9a55-0d8e2f6b7c11";

	@Test
	void aHealTellsItsStoryOnTheKafkaConnectorOrElseOnThePodAndAHangingApiServerDelaysNoHeal(@TempDir Path directory)
			throws Exception {
		// A server each: a loss on one would lose the other's slot too.
		PostgresServer server = PostgresTestBed.dedicated(Map.of("max_slot_wal_keep_size", "1MB"));
		PostgresServer other = PostgresTestBed.dedicated(Map.of("max_slot_wal_keep_size", "1MB"));
		try (server;
				other;
				StrimziResources kubernetes = new StrimziResources(TOKEN, "v1");
				ConnectStub connect = new ConnectStub();
				StrimziOperator operator = new StrimziOperator(kubernetes, connect.url(), Duration.ofMinutes(10))) {
			for (PostgresServer each : List.of(server, other)) {
				String database = (each == server) ? "shop" : "plain";
				each.execute("postgres", "CREATE DATABASE " + database);
				each.execute(database, "CREATE TABLE orders (id bigserial PRIMARY KEY, item text)",
						"SELECT pg_create_logical_replication_slot('" + database + "_cdc', 'pgoutput')");
			}
			kubernetes.createConnector("cdc", "orders-debezium",
					Map.of("class", "io.debezium.connector.postgresql.PostgresConnector", "config",
							Map.of("slot.name", "shop_cdc", "plugin.name", "pgoutput", "topic.prefix", "shop")));
			Path token = Files.writeString(directory.resolve("token"), TOKEN);
			List<String> args = new ArrayList<>(
					List.of("--server.port=0", "--slotkeeper.strimzi.api-server=" + kubernetes.url(),
							"--slotkeeper.strimzi.service-account-token-file=" + token,
							"--slotkeeper.events.pod-name=slot-keeper-0",
							"--slotkeeper.events.pod-namespace=slot-keeper", "--slotkeeper.events.pod-uid=" + POD_UID,
							"--slotkeeper.targets[0].slots[0].connector.strimzi.namespace=cdc",
							"--slotkeeper.targets[0].slots[0].connector.strimzi.name=orders-debezium"));
			args.addAll(target(0, "shop", server));
			args.addAll(target(1, "plain", other));
			try (ConfigurableApplicationContext app = new SpringApplicationBuilder(SlotKeeperApplication.class)
				.run(args.toArray(String[]::new))) {
				awaitHeals(app, 1, () -> SlotRecipes.lose(server, "shop", "shop_cdc"));
				await().atMost(Duration.ofSeconds(60)).until(() -> heal(kubernetes.events("cdc")).size() >= 3);
				List<Map<String, Object>> onConnector = heal(kubernetes.events("cdc"));
				assertThat(reasons(onConnector)).containsExactly("SlotLost", "SlotRecreated", "HandoverCompleted");
				Object uid = ((Map<?, ?>) kubernetes.connector("cdc", "orders-debezium").get("metadata")).get("uid");
				assertThat(onConnector).allSatisfy((event) -> {
					assertThat(event.get("regarding")).isEqualTo(Map.of("apiVersion", "kafka.strimzi.io/v1", "kind",
							"KafkaConnector", "namespace", "cdc", "name", "orders-debezium", "uid", uid));
					assertThat(event.get("reportingInstance")).isEqualTo("slot-keeper-0");
				});
				assertThat(onConnector.get(0)).containsEntry("type", "Warning");
				assertThat(String.valueOf(onConnector.get(0).get("note")))
					.startsWith("Slot shop_cdc of target shop was lost (wal_removed)");
				assertThat(String.valueOf(onConnector.get(1).get("note"))).contains("its consumer skips");
				System.out.printf("events on the KafkaConnector after a heal: %s%n",
						onConnector.stream()
							.map((event) -> event.get("type") + " " + event.get("reason") + ": " + event.get("note"))
							.toList());

				// Lost again within six minutes: the same event, its series counting.
				awaitHeals(app, 2, () -> SlotRecipes.lose(server, "shop", "shop_cdc"));
				await().atMost(Duration.ofSeconds(60))
					.untilAsserted(() -> assertThat(kubernetes.events("cdc"))
						.filteredOn((event) -> "SlotLost".equals(event.get("reason")))
						.singleElement()
						.satisfies((event) -> assertThat(((Map<?, ?>) event.get("series")).get("count")).isEqualTo(2)));

				// The API server hangs: the heal of a slot without a KafkaConnector does
				// not wait for its events, which reach slot-keeper's Pod once it answers.
				kubernetes.hang(true);
				awaitHeals(app, 3, () -> SlotRecipes.lose(other, "plain", "plain_cdc"));
				kubernetes.hang(false);
				await().atMost(Duration.ofSeconds(60))
					.until(() -> reasons(kubernetes.events("slot-keeper"))
						.containsAll(List.of("SlotLost", "SlotRecreated")));
				assertThat(kubernetes.calls()).filteredOn((call) -> call.contains("/events"))
					.as("within the chart's Role: create and patch on events, nothing else")
					.allMatch((call) -> call.startsWith("POST ") || call.startsWith("PATCH "));
				assertThat(kubernetes.events("slot-keeper"))
					.allSatisfy((event) -> assertThat(event.get("regarding")).isEqualTo(Map.of("apiVersion", "v1",
							"kind", "Pod", "namespace", "slot-keeper", "name", "slot-keeper-0", "uid", POD_UID)));
			}
		}
	}

	private static List<String> target(int index, String database, PostgresServer server) {
		String target = "--slotkeeper.targets[" + index + "].";
		return List.of(target + "name=" + database, target + "url=" + server.jdbcUrl(database),
				target + "username=" + server.user(), target + "heartbeat.interval=200ms",
				target + "slots-poll-interval=200ms", target + "slots[0].name=" + database + "_cdc",
				target + "slots[0].on-lost=recreate");
	}

	// Heals are audited as they are made, before any event: the count is the heal's own.
	private static void awaitHeals(ConfigurableApplicationContext app, int heals, Runnable lose) {
		lose.run();
		await().atMost(Duration.ofSeconds(30))
			.until(() -> app.getBean(AuditJournal.class)
				.entries()
				.stream()
				.filter((entry) -> "slot.heal".equals(entry.action()) && "done".equals(entry.outcome()))
				.count() >= heals);
	}

	// A heal's events, the audits' findings left out.
	private static List<Map<String, Object>> heal(List<Map<String, Object>> events) {
		return events.stream().filter((event) -> !"SettingCritical".equals(event.get("reason"))).toList();
	}

	private static List<String> reasons(List<Map<String, Object>> events) {
		return events.stream().map((event) -> String.valueOf(event.get("reason"))).toList();
	}

}
