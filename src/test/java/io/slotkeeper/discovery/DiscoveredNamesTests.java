package io.slotkeeper.discovery;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import org.junit.jupiter.api.Test;

import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;

import io.slotkeeper.SlotKeeperApplication;
import io.slotkeeper.fleet.Fleet;
import io.slotkeeper.fleet.Target;
import io.slotkeeper.sessions.AdvisoryLocks;
import io.slotkeeper.testbed.PostgresServer;
import io.slotkeeper.testbed.PostgresTestBed;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Two databases whose names fold alike ({@code Orders} and {@code orders}), found by two
 * instances that saw them join in opposite orders: both give each database the same
 * target name, so each database has one owner lock and one owner.
 */
class DiscoveredNamesTests {

	@Test
	void twoInstancesThatSawTheDatabasesJoinInOppositeOrdersNameThemAlike() {
		try (PostgresServer server = PostgresTestBed.dedicated(Map.of())) {
			server.execute("postgres", "CREATE DATABASE \"Orders\"", "CREATE DATABASE orders");
			server.execute("Orders", "SELECT pg_create_logical_replication_slot('b_cdc', 'pgoutput')");
			List<ConfigurableApplicationContext> instances = new ArrayList<>();
			try {
				instances.add(start(server, 0));
				await("the first instance finds Orders").atMost(Duration.ofSeconds(30))
					.until(() -> names(instances.get(0)).size() == 1);
				// Listed by slot name, orders' slot now comes first: a name given in
				// order of appearance would differ.
				server.execute("orders", "SELECT pg_create_logical_replication_slot('a_cdc', 'pgoutput')");
				await("the first instance finds orders").atMost(Duration.ofSeconds(30))
					.until(() -> names(instances.get(0)).size() == 2);
				instances.add(start(server, 1));
				await("the second instance finds both").atMost(Duration.ofSeconds(30))
					.until(() -> names(instances.get(1)).size() == 2);

				Map<String, String> first = names(instances.get(0));
				assertThat(names(instances.get(1))).as("one name per database in every instance").isEqualTo(first);
				assertThat(first.get("orders")).isEqualTo("main-orders");
				assertThat(first.get("Orders")).matches("main-orders-[0-9a-f]{6}");
				for (Map.Entry<String, String> database : first.entrySet()) {
					await("one owner of " + database.getKey()).atMost(Duration.ofSeconds(10))
						.until(() -> owners(instances, database.getValue()) == 1);
					assertThat(server.queryForString(database.getKey(), "SELECT count(*) FROM pg_locks l"
							+ " JOIN pg_database d ON d.oid = l.database WHERE l.locktype = 'advisory' AND l.granted"
							+ " AND d.datname = current_database() AND ((l.classid::bigint << 32) | l.objid::bigint) IN ("
							+ AdvisoryLocks.ownerKey("main-orders") + ", " + AdvisoryLocks.ownerKey(first.get("Orders"))
							+ ")"))
						.as("owner locks held in " + database.getKey())
						.isEqualTo("1");
				}
			}
			finally {
				instances.forEach(ConfigurableApplicationContext::close);
			}
		}
	}

	private static ConfigurableApplicationContext start(PostgresServer server, int n) {
		return new SpringApplicationBuilder(SlotKeeperApplication.class).run("--server.port=0",
				"--management.server.port=0", "--slotkeeper.instance-id=names-" + n,
				"--slotkeeper.servers[0].name=main", "--slotkeeper.servers[0].url=" + server.jdbcUrl("postgres"),
				"--slotkeeper.servers[0].username=" + server.user(), "--slotkeeper.servers[0].heartbeat.interval=200ms",
				"--slotkeeper.servers[0].slots-poll-interval=200ms");
	}

	// The database each discovered target heartbeats, by database.
	private static Map<String, String> names(ConfigurableApplicationContext instance) {
		Map<String, String> names = new TreeMap<>();
		for (Target target : instance.getBean(Fleet.class).all()) {
			target.database().ifPresent((database) -> names.put(database, target.name()));
		}
		return names;
	}

	private static long owners(List<ConfigurableApplicationContext> instances, String target) {
		return instances.stream()
			.filter((instance) -> instance.getBean(Fleet.class)
				.find(target)
				.map((t) -> t.ownership().owned())
				.orElse(false))
			.count();
	}

}
