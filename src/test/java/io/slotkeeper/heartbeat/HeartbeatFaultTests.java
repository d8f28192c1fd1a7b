package io.slotkeeper.heartbeat;

import java.io.IOException;
import java.sql.SQLException;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.Test;

import io.slotkeeper.sessions.Node;
import io.slotkeeper.sessions.NodeConnector;
import io.slotkeeper.sessions.NodeSession;
import io.slotkeeper.testbed.PostgresServer;
import io.slotkeeper.testbed.PostgresTestBed;
import io.slotkeeper.testbed.RefusedPort;
import io.slotkeeper.testbed.SilentServer;

import static io.slotkeeper.testbed.TestTargets.target;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * A dead, hung or failing target fails within its timeouts, backs off, recovers, leaks
 * nothing and never delays another target.
 */
class HeartbeatFaultTests {

	private final PostgresServer shared = PostgresTestBed.shared();

	@Test
	void deadTargetBacksOffWhileHealthyTargetKeepsItsCadence() throws IOException {
		long start = System.nanoTime();
		try (HeartbeatEngine engine = HeartbeatEngine.started(
				target("dead", "jdbc:postgresql://127.0.0.1:" + RefusedPort.PORT + "/x", "heartbeat.interval", "100ms",
						"heartbeat.backoff.min", "100ms", "heartbeat.backoff.max", "800ms", "heartbeat.backoff.jitter",
						"0"),
				target("healthy", this.shared, this.shared.createDatabase(), "heartbeat.interval", "100ms"))) {
			await().atMost(Duration.ofSeconds(10)).until(() -> engine.status("dead").failures() >= 5);
			double windowSeconds = (System.nanoTime() - start) / 1e9;
			long healthyBeats = engine.status("healthy").emissions();
			HeartbeatStatus dead = engine.status("dead");
			assertThat(windowSeconds).as("retries back off: 100+200+400+800 ms between the five failures")
				.isGreaterThanOrEqualTo(1.5);
			assertThat(healthyBeats).as("the healthy target beat every 100 ms meanwhile")
				.isGreaterThanOrEqualTo((long) ((windowSeconds - 0.2) * 10 * 0.6));
			assertThat(dead.lastError().sqlState()).isEqualTo("08001");
			assertThat(dead.health()).isEqualTo("DOWN");
			assertThat(engine.status("healthy").health()).isEqualTo("UP");
		}
	}

	@Test
	void targetThatComesBackBeatsAgainWithinBackoffMax() {
		try (PostgresServer server = PostgresTestBed.dedicated(Map.of());
				HeartbeatEngine engine = HeartbeatEngine
					.started(target("flaky", server, "postgres", "heartbeat.interval", "100ms", "heartbeat.backoff.min",
							"100ms", "heartbeat.backoff.max", "1s"))) {
			assumeTrue(server.supportsFaults(), "this backend cannot stop servers");
			await().atMost(Duration.ofSeconds(10)).until(() -> engine.status("flaky").emissions() >= 1);
			server.stop();
			await().atMost(Duration.ofSeconds(10)).until(() -> engine.status("flaky").consecutiveFailures() >= 5);
			assertThat(engine.status("flaky").health()).isEqualTo("DOWN");
			server.start();
			long restarted = System.nanoTime();
			await().atMost(Duration.ofMillis(1000 + 2000))
				.until(() -> engine.status("flaky").consecutiveFailures() == 0);
			System.out.printf("heartbeat resumed %d ms after the server came back (backoff.max 1000 ms)%n",
					(System.nanoTime() - restarted) / 1_000_000);
			assertThat(engine.status("flaky").health()).isEqualTo("UP");
		}
	}

	@Test
	void serverThatNeverAnswersFailsWithinConnectTimeoutWithoutDelayingOthers() throws Exception {
		try (SilentServer silent = new SilentServer();
				HeartbeatEngine engine = HeartbeatEngine.started(
						target("hung", "jdbc:postgresql://127.0.0.1:" + silent.port() + "/x", "heartbeat.enabled",
								"false", "connection.connect-timeout", "1s"),
						target("healthy", this.shared, this.shared.createDatabase(), "heartbeat.interval", "100ms"))) {
			await().atMost(Duration.ofSeconds(10)).until(() -> engine.status("healthy").emissions() >= 1);
			long healthyBefore = engine.status("healthy").emissions();
			HeartbeatOutcome outcome = engine.target("hung").beatNow(Duration.ofSeconds(30));
			long healthyBeats = engine.status("healthy").emissions() - healthyBefore;
			assertThat(outcome.succeeded()).isFalse();
			// Once, not twice: PgJDBC's sslmode=prefer tries again without TLS when the
			// first handshake times out.
			System.out.printf("a server that never answers: the attempt failed after %d ms (connect timeout 1 s)%n",
					outcome.duration().toMillis());
			assertThat(outcome.duration()).isBetween(Duration.ofMillis(900), Duration.ofMillis(1800));
			assertThat(outcome.failure().sqlState()).startsWith("08");
			assertThat(healthyBeats).as("beats while the hung target held its worker")
				.isGreaterThanOrEqualTo((long) (outcome.duration().toMillis() / 100 * 0.6));
		}
	}

	@Test
	void serverFrozenMidSessionFailsWithinStatementTimeoutAndRecovers() throws InterruptedException {
		try (PostgresServer server = PostgresTestBed.dedicated(Map.of());
				HeartbeatEngine engine = HeartbeatEngine
					.started(target("frozen", server, "postgres", "heartbeat.enabled", "false",
							"connection.statement-timeout", "500ms", "connection.connect-timeout", "1s"))) {
			assumeTrue(server.supportsFaults(), "this backend cannot freeze servers");
			assertThat(engine.target("frozen").beatNow(Duration.ofSeconds(30)).succeeded()).isTrue();
			HeartbeatOutcome outcome;
			server.freeze();
			try {
				outcome = engine.target("frozen").beatNow(Duration.ofSeconds(30));
			}
			finally {
				server.thaw();
			}
			assertThat(outcome.succeeded()).isFalse();
			assertThat(outcome.duration()).as("500 ms statement timeout + 2 s client margin")
				.isBetween(Duration.ofMillis(2000), Duration.ofMillis(4000));
			assertThat(outcome.failure().sqlState()).startsWith("08");
			assertThat(engine.target("frozen").beatNow(Duration.ofSeconds(30)).succeeded())
				.as("reconnects once the server answers")
				.isTrue();
		}
	}

	@Test
	void noConnectionOrThreadLeaksAfterManyFailureCycles() throws IOException {
		String database = this.shared.createDatabase();
		try (HeartbeatEngine engine = HeartbeatEngine.started(
				target("failing", this.shared, database, "heartbeat.mode", "query", "heartbeat.query", "SELECT 1/0",
						"heartbeat.backoff.min", "5ms", "heartbeat.backoff.max", "5ms"),
				target("dead", "jdbc:postgresql://127.0.0.1:" + RefusedPort.PORT + "/x", "heartbeat.backoff.min", "5ms",
						"heartbeat.backoff.max", "5ms"))) {
			await().atMost(Duration.ofSeconds(60))
				.until(() -> engine.status("failing").failures() >= 200 && engine.status("dead").failures() >= 200);
			assertThat(engine.status("failing").lastError().sqlState()).isEqualTo("22012");
			assertThat(engine.status("failing").connectionAttempts()).isGreaterThanOrEqualTo(200);
			assertThat(Integer
				.parseInt(this.shared.queryForString(database,
						"SELECT count(*) FROM pg_stat_activity WHERE application_name = 'slot-keeper' AND datname = '"
								+ database + "'")))
				.as("sessions of the failing target left open")
				.isLessThanOrEqualTo(1);
			// Two targets run at most two attempts at once; a worker that has just ended
			// one may not be idle yet when
			// the next is due (5 ms later here), so one more thread can appear in the
			// lane the next attempt goes to
			// (connect or retry), and lingers for its keep-alive: at most one lingering
			// worker per target in each of
			// the three lanes on a loaded machine (5 was seen in CI). A leak would be
			// hundreds: one per failure cycle.
			assertThat(engine.scheduler.workerThreads()).as("worker threads for two targets after 400 failures")
				.isLessThanOrEqualTo(6);
		}
	}

	@Test
	void unexpectedExceptionCountsAsFailureAndTheScheduleGoesOn() {
		AtomicInteger opens = new AtomicInteger();
		NodeConnector faulty = new NodeConnector(java.time.Clock.systemUTC()) {
			@Override
			public NodeSession open(Node node, Duration idleSessionTimeout) throws SQLException {
				int attempt = opens.incrementAndGet();
				if (node.target().equals("faulty") && attempt <= 3) {
					throw new IllegalStateException("injected fault " + attempt);
				}
				if (node.target().equals("faulty") && attempt == 4) {
					throw new StackOverflowError("injected error");
				}
				return super.open(node, idleSessionTimeout);
			}
		};
		try (HeartbeatEngine engine = HeartbeatEngine.started(faulty,
				target("faulty", this.shared, this.shared.createDatabase(), "heartbeat.interval", "50ms",
						"heartbeat.backoff.min", "10ms", "heartbeat.backoff.max", "20ms"))) {
			await().atMost(Duration.ofSeconds(10)).until(() -> engine.status("faulty").emissions() >= 2);
			HeartbeatStatus status = engine.status("faulty");
			assertThat(status.failures()).isEqualTo(4);
			assertThat(status.lastError().message()).isEqualTo("StackOverflowError: injected error");
			assertThat(status.consecutiveFailures()).isZero();
		}
	}

	@Test
	void stopLetsTheHeartbeatInFlightFinishAndClosesSessions() {
		String database = this.shared.createDatabase();
		HeartbeatEngine engine = HeartbeatEngine
			.started(target("slow", this.shared, database, "heartbeat.mode", "query", "heartbeat.query",
					"SELECT pg_sleep(0.5)", "heartbeat.interval", "10ms", "heartbeat.standby-snapshot", "off"));
		await().atMost(Duration.ofSeconds(10)).until(() -> engine.status("slow").emissions() >= 1);
		await().atMost(Duration.ofSeconds(10))
			.until(() -> "active".equals(this.shared.queryForString(database,
					"SELECT state FROM pg_stat_activity WHERE application_name = 'slot-keeper' AND datname = '"
							+ database + "'")));
		long before = engine.status("slow").emissions();
		engine.close();
		assertThat(engine.status("slow").emissions()).as("the heartbeat in flight finished").isEqualTo(before + 1);
		assertThat(engine.status("slow").failures()).isZero();
		await().atMost(Duration.ofSeconds(5))
			.until(() -> "0".equals(this.shared.queryForString(database,
					"SELECT count(*) FROM pg_stat_activity WHERE application_name = 'slot-keeper' AND datname = '"
							+ database + "'")));
	}

}
