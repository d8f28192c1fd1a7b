package io.slotkeeper.heartbeat;

import java.time.Duration;
import java.util.List;

import org.junit.jupiter.api.Test;

import io.slotkeeper.config.TargetProperties;
import io.slotkeeper.fleet.Instance;
import io.slotkeeper.sessions.AdvisoryLocks;
import io.slotkeeper.testbed.PostgresServer;
import io.slotkeeper.testbed.PostgresTestBed;
import io.slotkeeper.testbed.TcpProxy;

import static io.slotkeeper.testbed.TestTargets.target;
import static io.slotkeeper.testbed.TestTargets.targetVia;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Two instances keep the same target: exactly one owns it and heartbeats; the other
 * stands by, healthy, and takes over when the owner's session dies, when the owner's
 * network is cut without a reset, and when the owner freezes.
 */
class OwnershipTests {

	private final PostgresServer server = PostgresTestBed.shared();

	@Test
	void exactlyOneInstanceHeartbeatsAndTheOtherTakesOverWhenTheOwnersSessionDies() {
		String database = this.server.createDatabase();
		TargetProperties target = target("shared", this.server, database, "heartbeat.interval", "200ms",
				"heartbeat.backoff.min", "1s", "heartbeat.backoff.max", "1s", "heartbeat.backoff.jitter", "0");
		List<Instance> instances = HeartbeatEngine.preferredFirst("shared");
		try (HeartbeatEngine first = HeartbeatEngine.started(instances.get(1), target);
				HeartbeatEngine second = HeartbeatEngine.started(instances.get(0), target)) {
			await("the instance rendezvous hashing prefers owns the target").atMost(Duration.ofSeconds(10))
				.until(() -> owners(first, second).equals(List.of(second)) && first.status("shared").owner() != null);
			HeartbeatEngine owner = second;
			HeartbeatEngine standby = first;
			long ownerBeats = owner.status("shared").emissions();
			// The standby may have owned the target before the preferred instance was up:
			// it writes nothing now.
			long standbyBeats = standby.status("shared").emissions();
			await().atMost(Duration.ofSeconds(10)).until(() -> owner.status("shared").emissions() >= ownerBeats + 3);
			assertThat(standby.status("shared").emissions()).as("the standby writes nothing").isEqualTo(standbyBeats);
			assertThat(standby.status("shared").health()).as("standing by is healthy").isEqualTo("UP");
			assertThat(standby.registry.get("slotkeeper.heartbeat.owner").gauge().value()).isZero();
			assertThat(owner.registry.get("slotkeeper.heartbeat.owner").gauge().value()).isEqualTo(1);

			long killed = System.nanoTime();
			this.server.execute(database,
					"SELECT pg_terminate_backend(pid) FROM pg_locks WHERE locktype = 'advisory'"
							+ " AND granted AND ((classid::bigint << 32) | objid::bigint) = "
							+ AdvisoryLocks.ownerKey("shared"));
			await().atMost(Duration.ofMillis(200 + 1000 + 2000))
				.until(() -> standby.status("shared").emissions() >= standbyBeats + 1);
			System.out.printf("takeover: the standby heartbeat %d ms after the owner's session was killed"
					+ " (interval 200 ms, backoff 1 s)%n", (System.nanoTime() - killed) / 1_000_000);
			await().atMost(Duration.ofSeconds(10)).until(() -> Boolean.FALSE.equals(owner.status("shared").owner()));
			assertThat(owners(first, second)).containsExactly(standby);
		}
	}

	@Test
	void anOwnerCutOffWithoutAResetLosesTheTargetWithinItsIdleSessionTimeout() throws Exception {
		String database = this.server.createDatabase();
		try (TcpProxy network = new TcpProxy(this.server.host(), this.server.port());
				HeartbeatEngine owner = HeartbeatEngine.started(HeartbeatEngine.preferredFirst("shared").get(0),
						targetVia("shared", this.server, network.port(), database, QUICK));
				HeartbeatEngine other = startedAsStandby(owner, target("shared", this.server, database, QUICK))) {
			long cut = System.nanoTime();
			network.cut();
			assertTakenOver(other, cut, "the owner's network was cut (no reset)");
		}
	}

	@Test
	void aFrozenOwnerLosesTheTargetWithinItsIdleSessionTimeout() {
		String database = this.server.createDatabase();
		try (HeartbeatEngine owner = HeartbeatEngine.started(HeartbeatEngine.preferredFirst("shared").get(0),
				target("shared", this.server, database, QUICK));
				HeartbeatEngine other = startedAsStandby(owner, target("shared", this.server, database, QUICK))) {
			long frozen = System.nanoTime();
			// From the server's side a frozen process is this: its session stays open,
			// idle, holding the lock.
			owner.scheduler.stop();
			assertTakenOver(other, frozen, "the owner stopped working, its session open");
		}
	}

	@Test
	void aServerInRecoveryIsNeverTakenForThePrimary() {
		try (PostgresServer primary = PostgresTestBed.dedicated(java.util.Map.of());
				PostgresServer standby = primary.standby();
				HeartbeatEngine engine = HeartbeatEngine.started(target("shared", standby, "postgres", QUICK))) {
			await().atMost(Duration.ofSeconds(10)).until(() -> engine.status("shared").failures() >= 2);
			HeartbeatStatus status = engine.status("shared");
			assertThat(status.lastError().sqlState()).isEqualTo("25006");
			assertThat(status.lastError().message()).contains("is in recovery, a standby");
			assertThat(status.emissions()).isZero();
			assertThat(engine.fleet.get("shared").ownership().owned()).as("no owner lock taken on a standby").isFalse();
		}
	}

	private static final String[] QUICK = { "heartbeat.interval", "200ms", "connection.statement-timeout", "1s",
			"connection.connect-timeout", "1s", "heartbeat.backoff.min", "1s", "heartbeat.backoff.max", "1s",
			"heartbeat.backoff.jitter", "0" };

	// The owner is the instance rendezvous hashing prefers, so that it keeps the target
	// when the other arrives.
	private static HeartbeatEngine startedAsStandby(HeartbeatEngine owner, TargetProperties target) {
		await().atMost(Duration.ofSeconds(10)).until(() -> owner.fleet.get("shared").ownership().owned());
		HeartbeatEngine other = HeartbeatEngine.started(HeartbeatEngine.preferredFirst("shared").get(1), target);
		await().atMost(Duration.ofSeconds(10)).until(() -> Boolean.FALSE.equals(other.status("shared").owner()));
		return other;
	}

	private static void assertTakenOver(HeartbeatEngine other, long since, String what) {
		Duration idle = HeartbeatSession.idleTimeout(other.fleet.get("shared"));
		Duration interval = other.fleet.get("shared").properties().heartbeat().interval();
		await().atMost(idle.plus(interval).plusSeconds(2)).until(() -> other.status("shared").emissions() >= 1);
		System.out.printf(
				"takeover: the other instance heartbeat %d ms after %s (idle_session_timeout %d ms,"
						+ " interval %d ms)%n",
				(System.nanoTime() - since) / 1_000_000, what, idle.toMillis(), interval.toMillis());
		assertThat(other.fleet.get("shared").ownership().owned()).isTrue();
	}

	private static List<HeartbeatEngine> owners(HeartbeatEngine... engines) {
		return List.of(engines).stream().filter((engine) -> engine.fleet.get("shared").ownership().owned()).toList();
	}

}
