package io.slotkeeper.heartbeat;

import java.time.Duration;
import java.util.List;

import org.junit.jupiter.api.Test;

import io.slotkeeper.config.TargetProperties;
import io.slotkeeper.fleet.AdvisoryLocks;
import io.slotkeeper.testbed.PostgresServer;
import io.slotkeeper.testbed.PostgresTestBed;

import static io.slotkeeper.testbed.TestTargets.target;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Two instances keep the same target: exactly one owns it and heartbeats; the other stands by, healthy, and takes
 * over when the owner's session dies.
 */
class OwnershipTests {

	private final PostgresServer server = PostgresTestBed.shared();

	@Test
	void exactlyOneInstanceHeartbeatsAndTheOtherTakesOverWhenTheOwnersSessionDies() {
		String database = this.server.createDatabase();
		TargetProperties target = target("shared", this.server, database, "heartbeat.interval", "200ms",
				"heartbeat.backoff.min", "1s", "heartbeat.backoff.max", "1s", "heartbeat.backoff.jitter", "0");
		try (HeartbeatEngine first = HeartbeatEngine.started(target);
				HeartbeatEngine second = HeartbeatEngine.started(target)) {
			await().atMost(Duration.ofSeconds(10)).until(() -> owners(first, second).size() == 1
					&& first.status("shared").owner() != null && second.status("shared").owner() != null);
			HeartbeatEngine owner = owners(first, second).get(0);
			HeartbeatEngine standby = (owner == first) ? second : first;
			long ownerBeats = owner.status("shared").emissions();
			await().atMost(Duration.ofSeconds(10)).until(() -> owner.status("shared").emissions() >= ownerBeats + 3);
			assertThat(standby.status("shared").emissions()).as("the standby writes nothing").isZero();
			assertThat(standby.status("shared").health()).as("standing by is healthy").isEqualTo("UP");
			assertThat(standby.registry.get("slotkeeper.heartbeat.owner").gauge().value()).isZero();
			assertThat(owner.registry.get("slotkeeper.heartbeat.owner").gauge().value()).isEqualTo(1);

			long killed = System.nanoTime();
			this.server.execute(database, "SELECT pg_terminate_backend(pid) FROM pg_locks WHERE locktype = 'advisory'"
					+ " AND granted AND ((classid::bigint << 32) | objid::bigint) = "
					+ AdvisoryLocks.ownerKey("shared"));
			await().atMost(Duration.ofMillis(200 + 1000 + 2000)).until(() -> standby.status("shared").emissions() >= 1);
			System.out.printf("takeover: the standby heartbeat %d ms after the owner's session was killed"
					+ " (interval 200 ms, backoff 1 s)%n", (System.nanoTime() - killed) / 1_000_000);
			await().atMost(Duration.ofSeconds(10)).until(() -> Boolean.FALSE.equals(owner.status("shared").owner()));
			assertThat(owners(first, second)).containsExactly(standby);
		}
	}

	private static List<HeartbeatEngine> owners(HeartbeatEngine... engines) {
		return List.of(engines).stream().filter((engine) -> engine.fleet.get("shared").ownership().owned()).toList();
	}

}
