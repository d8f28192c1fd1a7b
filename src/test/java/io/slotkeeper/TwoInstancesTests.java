package io.slotkeeper;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

import org.junit.jupiter.api.Test;

import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.test.web.servlet.client.RestTestClient;

import io.slotkeeper.fleet.Instance;
import io.slotkeeper.fleet.Rendezvous;
import io.slotkeeper.security.TokenHashes;
import io.slotkeeper.sessions.AdvisoryLocks;
import io.slotkeeper.testbed.PostgresServer;
import io.slotkeeper.testbed.PostgresTestBed;
import io.slotkeeper.testbed.SlotRecipes;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Two slot-keeper applications against the same target, as two pods: exactly one owns the
 * target and heartbeats, concurrent recreates through both APIs drop the slot once, only
 * the owner heals, and killing the owner's session hands the target over.
 */
class TwoInstancesTests {

	private static final String TOKEN = "two-instances-operator";

	@Test
	void oneOwnerHeartbeatsOneRecreateWinsAndTheStandbyTakesOver() throws Exception {
		try (PostgresServer server = PostgresTestBed.dedicated(Map.of("max_slot_wal_keep_size", "1MB"))) {
			server.execute("postgres", "CREATE DATABASE app");
			server.execute("app", "CREATE TABLE orders (id bigserial PRIMARY KEY, item text)",
					"SELECT pg_create_logical_replication_slot('contested', 'pgoutput')",
					"SELECT pg_create_logical_replication_slot('healme', 'pgoutput')");
			List<ConfigurableApplicationContext> instances = new ArrayList<>();
			try {
				for (int i = 0; i < 2; i++) {
					instances.add(new SpringApplicationBuilder(SlotKeeperApplication.class).run("--server.port=0",
							"--slotkeeper.instance-id=instance-" + i, "--slotkeeper.targets[0].name=orders",
							"--slotkeeper.targets[0].url=" + server.jdbcUrl("app"),
							"--slotkeeper.targets[0].username=" + server.user(),
							"--slotkeeper.targets[0].heartbeat.interval=200ms",
							"--slotkeeper.targets[0].heartbeat.backoff.min=500ms",
							"--slotkeeper.targets[0].heartbeat.backoff.max=500ms",
							"--slotkeeper.targets[0].slots-poll-interval=200ms",
							"--slotkeeper.targets[0].slots[0].name=healme",
							"--slotkeeper.targets[0].slots[0].on-lost=recreate", "--slotkeeper.api.tokens[0].name=ci",
							"--slotkeeper.api.tokens[0].role=operator",
							"--slotkeeper.api.tokens[0].sha256=" + TokenHashes.sha256Hex(TOKEN)));
				}
				List<RestTestClient> clients = instances.stream()
					.map((context) -> RestTestClient.bindToServer()
						.baseUrl("http://localhost:" + context.getEnvironment().getProperty("local.server.port"))
						.defaultHeader("Authorization", "Bearer " + TOKEN)
						.build())
					.toList();
				// The owner ends up being the instance rendezvous hashing prefers for the
				// target.
				int preferred = (Rendezvous.score("orders", Instance.named("instance-0").key()) > Rendezvous
					.score("orders", Instance.named("instance-1").key())) ? 0 : 1;
				await().atMost(Duration.ofSeconds(10))
					.until(() -> owners(clients).equals(List.of(preferred)) && emissions(clients.get(preferred)) >= 3);
				int owner = preferred;
				int standby = 1 - owner;
				assertThat(emissions(clients.get(standby))).as("the standby writes nothing").isZero();
				// Each slot series comes from the owner alone, so that each slot alert
				// fires once, not once per pod.
				await().atMost(Duration.ofSeconds(5))
					.until(() -> slotSeries(clients.get(owner)) && !slotSeries(clients.get(standby)));

				SlotRecipes.lose(server, "app", "contested");
				List<CompletableFuture<Integer>> recreates = clients.stream()
					.map((client) -> CompletableFuture.supplyAsync(() -> client.post()
						.uri("/api/v1/targets/orders/slots/contested/recreate")
						.exchange()
						.returnResult(byte[].class)
						.getStatus()
						.value()))
					.toList();
				assertThat(recreates.stream().map(CompletableFuture::join).sorted().toList())
					.as("one recreate, one refusal of a slot that is no longer lost")
					.containsExactly(200, 409);
				await().atMost(Duration.ofSeconds(5)).until(() -> audit(clients.get(owner)).contains("slot.heal"));
				assertThat(audit(clients.get(owner))).contains("\"slot\":\"healme\"")
					.contains("\"actor\":\"slot-keeper\"");
				assertThat(audit(clients.get(standby))).as("only the owner heals").doesNotContain("slot.heal");
				assertThat(server.queryForString("postgres",
						"SELECT wal_status FROM pg_replication_slots WHERE slot_name = 'healme'"))
					.isEqualTo("reserved");

				long killed = System.nanoTime();
				server.execute("app",
						"SELECT pg_terminate_backend(pid) FROM pg_locks WHERE locktype = 'advisory'"
								+ " AND granted AND ((classid::bigint << 32) | objid::bigint) = "
								+ AdvisoryLocks.ownerKey("orders"));
				await().atMost(Duration.ofMillis(200 + 500 + 2000))
					.until(() -> owners(clients).equals(List.of(standby)) && emissions(clients.get(standby)) >= 1);
				await().atMost(Duration.ofSeconds(5)).until(() -> slotSeries(clients.get(standby)));
				System.out.printf("two instances: the standby took over %d ms after the owner's session was killed%n",
						(System.nanoTime() - killed) / 1_000_000);
			}
			finally {
				instances.forEach(ConfigurableApplicationContext::close);
			}
		}
	}

	private static List<Integer> owners(List<RestTestClient> clients) {
		List<Integer> owners = new ArrayList<>();
		for (int i = 0; i < clients.size(); i++) {
			Map<?, ?> heartbeat = heartbeat(clients.get(i));
			if (Boolean.TRUE.equals(heartbeat.get("owner"))) {
				owners.add(i);
			}
		}
		return owners;
	}

	private static boolean slotSeries(RestTestClient client) {
		String scrape = new String(
				client.get().uri("/actuator/prometheus").exchange().returnResult(byte[].class).getResponseBody());
		return scrape.contains("slotkeeper_slot_retained_wal_bytes{") && scrape.contains("slot=\"contested\"");
	}

	private static String audit(RestTestClient client) {
		return new String(client.get().uri("/api/v1/audit").exchange().returnResult(byte[].class).getResponseBody());
	}

	private static long emissions(RestTestClient client) {
		return ((Number) heartbeat(client).get("emissions")).longValue();
	}

	private static Map<?, ?> heartbeat(RestTestClient client) {
		Map<?, ?> target = client.get()
			.uri("/api/v1/targets/orders")
			.exchange()
			.returnResult(Map.class)
			.getResponseBody();
		return (Map<?, ?>) target.get("heartbeat");
	}

}
