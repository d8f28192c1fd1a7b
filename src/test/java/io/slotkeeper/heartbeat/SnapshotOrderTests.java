package io.slotkeeper.heartbeat;

import java.time.Duration;
import java.util.Map;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import io.slotkeeper.sessions.Lsn;
import io.slotkeeper.testbed.LogicalConsumer;
import io.slotkeeper.testbed.PostgresServer;
import io.slotkeeper.testbed.PostgresTestBed;

import static io.slotkeeper.testbed.TestTargets.target;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The heartbeat ordered with a standby snapshot of its own: the slot moves to each beat
 * within the beat, where the background writer's records (every 15 s at most) would let
 * it move only every 15 s.
 */
@Tag("pg-compat")
@Tag("pg-each")
class SnapshotOrderTests {

	@Test
	void orderedSnapshotMovesAConfirmingSlotToEveryBeat() throws Exception {
		try (PostgresServer server = PostgresTestBed.dedicated(Map.of())) {
			assumeTrue(server.majorVersion() >= 16, "pg_log_standby_snapshot() exists from 16");
			String database = idleDatabase(server, "ordered");
			try (LogicalConsumer consumer = new LogicalConsumer(server, database, "ordered", "pub", true);
					HeartbeatEngine engine = HeartbeatEngine
						.started(target("idle", server, database, "heartbeat.interval", "1s"))) {
				for (int beat = 0; beat < 3; beat++) {
					String before = engine.status("idle").lastLsn();
					await().atMost(Duration.ofSeconds(3))
						.until(() -> engine.status("idle").lastLsn() != null
								&& !engine.status("idle").lastLsn().equals(before));
					long written = Lsn.parse(engine.status("idle").lastLsn());
					await("restart_lsn reaches the beat written at " + written).atMost(Duration.ofMillis(900))
						.until(() -> restartLsn(server, "ordered") >= written);
				}
				HeartbeatStatus status = engine.status("idle");
				assertThat(status.standbySnapshot()).isEqualTo("ok");
				assertThat(status.walFloor()).startsWith("about one interval (1 s)");
				assertThat(status.failures()).isZero();
			}
		}
	}

	@Test
	void aConsumerThatNeverConfirmsDoesNotHoldTheSchedule() throws Exception {
		PostgresServer server = PostgresTestBed.shared();
		assumeTrue(server.majorVersion() >= 16, "pg_log_standby_snapshot() exists from 16");
		String database = idleDatabase(server, "stuck_" + ProcessHandle.current().pid());
		try (LogicalConsumer stuck = new LogicalConsumer(server, database, "stuck_" + ProcessHandle.current().pid(),
				"pub", true, false);
				HeartbeatEngine engine = HeartbeatEngine
					.started(target("stuck", server, database, "heartbeat.interval", "400ms"))) {
			await().atMost(Duration.ofSeconds(10)).until(() -> engine.status("stuck").emissions() >= 6);
			assertThat(engine.status("stuck").standbySnapshot()).isEqualTo("ok");
			assertThat(engine.status("stuck").failures()).isZero();
		}
		finally {
			server.execute("postgres",
					"SELECT pg_drop_replication_slot('stuck_" + ProcessHandle.current().pid() + "')");
		}
	}

	@Test
	void withoutThePrivilegeAutoBeatsPlainlyAndSaysWhichFloorApplies() {
		PostgresServer server = PostgresTestBed.shared();
		assumeTrue(server.majorVersion() >= 16, "the privilege matters from 16");
		try (HeartbeatEngine engine = HeartbeatEngine.started(
				target("unprivileged", unprivileged(server), "username", "plain", "heartbeat.interval", "100ms"))) {
			await().atMost(Duration.ofSeconds(10)).until(() -> engine.status("unprivileged").emissions() >= 3);
			HeartbeatStatus status = engine.status("unprivileged");
			assertThat(status.standbySnapshot()).startsWith("not allowed")
				.contains("GRANT EXECUTE ON FUNCTION pg_log_standby_snapshot()");
			assertThat(status.walFloor()).startsWith("about interval + 15 s").contains("not allowed");
			assertThat(status.failures()).isZero();
			assertThat(status.health()).isEqualTo("UP");
		}
	}

	@Test
	void askedForWithoutThePrivilegeTheRefusalIsReportedOnceAndHeartbeatsGoOn() {
		PostgresServer server = PostgresTestBed.shared();
		assumeTrue(server.majorVersion() >= 16, "pg_log_standby_snapshot() exists from 16");
		try (HeartbeatEngine engine = HeartbeatEngine.started(target("orders", unprivileged(server), "username",
				"plain", "heartbeat.interval", "100ms", "heartbeat.standby-snapshot", "true"))) {
			await().atMost(Duration.ofSeconds(10))
				.until(() -> engine.status("orders").emissions() >= 3
						&& engine.status("orders").standbySnapshot() != null);
			HeartbeatStatus status = engine.status("orders");
			assertThat(status.standbySnapshot()).as("true binds to on")
				.startsWith("refused (SQLState 42501)")
				.contains("GRANT EXECUTE ON FUNCTION pg_log_standby_snapshot()");
			assertThat(status.failures()).isZero();
			assertThat(status.health()).isEqualTo("UP");
		}
	}

	@Test
	void beforeSixteenTheStatusSaysTheSnapshotIsNotAvailable() {
		PostgresServer server = PostgresTestBed.shared();
		assumeTrue(server.majorVersion() < 16, "pg_log_standby_snapshot() exists from 16");
		try (HeartbeatEngine engine = HeartbeatEngine
			.started(target("old", server, "postgres", "heartbeat.interval", "100ms"))) {
			await().atMost(Duration.ofSeconds(10)).until(() -> engine.status("old").emissions() >= 2);
			HeartbeatStatus status = engine.status("old");
			assertThat(status.standbySnapshot())
				.startsWith("not available: pg_log_standby_snapshot() needs PostgreSQL 16");
			assertThat(status.walFloor()).startsWith("about interval + 15 s, up to 16 s of WAL");
			assertThat(status.failures()).isZero();
		}
	}

	// A database of its own and a role without the privilege (or any other).
	private static String unprivileged(PostgresServer server) {
		String database = server.createDatabase();
		server.execute("postgres", "DO $$ BEGIN IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = 'plain')"
				+ " THEN CREATE ROLE plain LOGIN; END IF; END $$");
		return server.jdbcUrl(database);
	}

	private static String idleDatabase(PostgresServer server, String slot) {
		String database = server.createDatabase();
		server.execute(database, "CREATE TABLE orders (id bigserial PRIMARY KEY)",
				"CREATE PUBLICATION pub FOR TABLE orders",
				"SELECT pg_create_logical_replication_slot('" + slot + "', 'pgoutput')");
		return database;
	}

	private static long restartLsn(PostgresServer server, String slot) {
		return Lsn.parse(server.queryForString("postgres",
				"SELECT restart_lsn FROM pg_replication_slots WHERE slot_name = '" + slot + "'"));
	}

}
