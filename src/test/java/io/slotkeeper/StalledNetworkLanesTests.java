package io.slotkeeper;

import java.time.Duration;
import java.time.Instant;
import java.util.List;

import org.junit.jupiter.api.Test;

import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;

import io.slotkeeper.lanes.LaneWatch;
import io.slotkeeper.lanes.RepeatingTasks;
import io.slotkeeper.testbed.PostgresServer;
import io.slotkeeper.testbed.PostgresTestBed;
import io.slotkeeper.testbed.TcpProxy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The network to a target stalls (what was sent is held, nothing answers, nothing is
 * closed), as the soak's forwarder does: every lane that talks to the server —
 * heartbeats, polls, heals, the WAL-limit guard — ends each round within its bound
 * through its statement and socket timeouts, none is reported overdue, and every lane
 * works again once the network flows.
 */
class StalledNetworkLanesTests {

	private static final List<String> LANES = List.of("heartbeat", "slot-poller", "heal", "keep-size");

	@Test
	void everyLaneEndsItsRoundsWhileTheNetworkStallsAndWorksAgainAfter() throws Exception {
		PostgresServer server = PostgresTestBed.shared();
		String database = server.createDatabase();
		server.execute(database, "CREATE TABLE t (id int PRIMARY KEY)", "CREATE PUBLICATION cdc FOR TABLE t",
				"SELECT pg_create_logical_replication_slot('guarded', 'pgoutput')");
		try (TcpProxy network = new TcpProxy(server.host(), server.port());
				ConfigurableApplicationContext app = start(server, network, database)) {
			LaneWatch lanes = app.getBean(LaneWatch.class);
			await().atMost(Duration.ofSeconds(30))
				.until(() -> LANES.stream().allMatch((lane) -> lanes.lastEnded(lane).isPresent()));

			Instant stalled = Instant.now();
			network.stall();
			// Three times the socket timeout (statement timeout 1 s + 2 s): rounds sent
			// into the stall end by it.
			await("no round past its bound while the network stalls").during(Duration.ofSeconds(9))
				.atMost(Duration.ofSeconds(12))
				.until(() -> lanes.overdue().isEmpty());
			for (String lane : List.of("heartbeat", "slot-poller")) {
				assertThat(lanes.lastEnded(lane)).as("rounds of %s went on ending during the stall", lane)
					.hasValueSatisfying((ended) -> assertThat(ended).isAfter(stalled.plusSeconds(4)));
			}

			Instant resumed = Instant.now();
			network.resume();
			await().atMost(Duration.ofSeconds(30))
				.untilAsserted(() -> LANES
					.forEach((lane) -> assertThat(lanes.lastEnded(lane)).as("a round of %s after the stall", lane)
						.hasValueSatisfying((ended) -> assertThat(ended).isAfter(resumed))));
			for (String lane : LANES) {
				System.out.printf("stalled network: lane %s, longest round %s%n", lane,
						lanes.longestEnded(lane).orElseThrow());
			}
			// The poller's and heartbeat's bound: six times the longest statement on a
			// pooled connection (13 s).
			assertThat(lanes.longestEnded("slot-poller").orElseThrow())
				.isLessThan(Duration.ofSeconds(13).multipliedBy(RepeatingTasks.ROUND_BOUND));
			assertThat(lanes.overdue()).isEmpty();
		}
	}

	private static ConfigurableApplicationContext start(PostgresServer server, TcpProxy network, String database) {
		String target = "--slotkeeper.targets[0].";
		return new SpringApplicationBuilder(SlotKeeperApplication.class).run("--server.port=0",
				"--management.server.port=0", target + "name=app",
				target + "url=jdbc:postgresql://127.0.0.1:" + network.port() + "/" + database,
				target + "username=" + server.user(),
				target + "password=" + ((server.password() != null) ? server.password() : ""),
				target + "slots-poll-interval=200ms", target + "heartbeat.interval=200ms",
				target + "connection.statement-timeout=1s", target + "connection.connect-timeout=1s",
				target + "slots[0].name=guarded", target + "slots[0].on-lost=recreate",
				target + "slots[0].on-outage.raise-keep-size-to=1GB", "--logging.level.root=WARN");
	}

}
