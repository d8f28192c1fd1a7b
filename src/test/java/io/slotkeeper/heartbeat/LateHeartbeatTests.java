package io.slotkeeper.heartbeat;

import java.time.Duration;

import org.junit.jupiter.api.Test;

import io.slotkeeper.testbed.PostgresServer;
import io.slotkeeper.testbed.PostgresTestBed;

import static io.slotkeeper.testbed.TestTargets.target;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * Beats that run late, as on a busy instance or server, keep their session: the server
 * must not end a session that is merely waiting for its next beat, since the reconnection
 * costs it more than the beat did and a fleet whose sessions are ended that way falls
 * further behind with every one (issue #27: 11,079 idle-session kills at a 1 s interval).
 */
class LateHeartbeatTests {

	private final PostgresServer shared = PostgresTestBed.shared();

	@Test
	void lateBeatsKeepTheirSessionInsteadOfBeingEndedByTheServer() throws Exception {
		assumeTrue(this.shared.majorVersion() >= 14, "idle_session_timeout exists from PostgreSQL 14");
		String database = this.shared.createDatabase();
		// Scheduled beats off: the test plays a busy instance, whose beats come late.
		// Idle timeout: 2 x 1 s + 1 s + 1 s.
		try (HeartbeatEngine engine = HeartbeatEngine.started(target("late", this.shared, database, "heartbeat.enabled",
				"false", "heartbeat.interval", "1s", "connection.statement-timeout", "1s"))) {
			TargetHeartbeat heartbeat = engine.target("late");
			assertThat(HeartbeatSession.idleTimeout(engine.fleet.get("late"))).isEqualTo(Duration.ofSeconds(4));
			assertThat(heartbeat.beatNow(Duration.ofSeconds(5)).succeeded()).isTrue();
			String pid = sessionPid(database);
			awaitIdleFor(database, 2.5);
			assertThat(heartbeat.beatNow(Duration.ofSeconds(5)).succeeded()).isTrue();
			// Longer than the usual 4 s: today's code let the server end the session
			// here.
			awaitIdleFor(database, 5.5);
			HeartbeatOutcome late = heartbeat.beatNow(Duration.ofSeconds(5));
			assertThat(late.succeeded()).isTrue();
			assertThat(sessionPid(database)).as("the same server session beat").isEqualTo(pid);
			assertThat(engine.status("late").connectionAttempts()).as("sessions opened").isEqualTo(1);
			assertThat(this.shared.queryForString("postgres", "SELECT coalesce(sum(sessions_fatal), 0) FROM"
					+ " pg_stat_database WHERE datname = '" + database + "'"))
				.as("sessions the server ended")
				.isEqualTo("0");
		}
	}

	@Test
	void roomForALateSessionGrowsOnlyWhenItIdledPastHalfItsTimeoutAndStopsAtTheCeiling() {
		Duration usual = Duration.ofSeconds(8);
		Duration ceiling = usual.multipliedBy(HeartbeatSession.LATE_FACTOR);
		assertThat(HeartbeatSession.lateRoom(usual, Duration.ofSeconds(1), ceiling)).isEqualTo(usual);
		assertThat(HeartbeatSession.lateRoom(usual, Duration.ofSeconds(4), ceiling)).isEqualTo(usual);
		assertThat(HeartbeatSession.lateRoom(usual, Duration.ofSeconds(5), ceiling)).isEqualTo(Duration.ofSeconds(16));
		assertThat(HeartbeatSession.lateRoom(usual, Duration.ofSeconds(7), ceiling)).isEqualTo(Duration.ofSeconds(21));
		assertThat(HeartbeatSession.lateRoom(Duration.ofSeconds(16), Duration.ofSeconds(15), ceiling))
			.isEqualTo(ceiling);
		assertThat(HeartbeatSession.lateRoom(ceiling, Duration.ofSeconds(30), ceiling)).isEqualTo(ceiling);
	}

	private String sessionPid(String database) {
		return this.shared.queryForString("postgres", "SELECT string_agg(pid::text, ',') FROM pg_stat_activity WHERE"
				+ " datname = '" + database + "' AND application_name = 'slot-keeper'");
	}

	// The session's own idle time as the server counts it, or until the server ended it.
	private void awaitIdleFor(String database, double seconds) {
		await().atMost(Duration.ofSeconds(20))
			.until(() -> "t".equals(this.shared.queryForString("postgres",
					"SELECT coalesce(bool_and(state = 'idle' AND now() - state_change >= interval '" + seconds
							+ " seconds'), true) FROM pg_stat_activity WHERE datname = '" + database
							+ "' AND application_name = 'slot-keeper'")));
	}

}
