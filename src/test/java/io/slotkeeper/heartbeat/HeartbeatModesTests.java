package io.slotkeeper.heartbeat;

import java.time.Duration;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import io.slotkeeper.sessions.Lsn;
import io.slotkeeper.testbed.PostgresServer;
import io.slotkeeper.testbed.PostgresTestBed;

import static io.slotkeeper.testbed.TestTargets.target;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Each heartbeat mode writes what it should into a real server.
 */
@Tag("pg-compat")
@Tag("pg-each")
class HeartbeatModesTests {

	private final PostgresServer server = PostgresTestBed.shared();

	@ParameterizedTest(name = "transactional={0}")
	@ValueSource(booleans = { true, false })
	void messageModeEmitsLogicalMessagesThatDecodingSees(boolean transactional) {
		String database = this.server.createDatabase();
		String slot = "peek_" + (transactional ? "tx" : "nontx");
		this.server.execute(database, "SELECT pg_create_logical_replication_slot('" + slot + "', 'test_decoding')");
		try (HeartbeatEngine engine = HeartbeatEngine
			.started(target("orders", this.server, database, "heartbeat.interval", "100ms", "heartbeat.transactional",
					Boolean.toString(transactional), "heartbeat.prefix", "sk_test", "heartbeat.content", "beat"))) {
			await().atMost(Duration.ofSeconds(10))
				.untilAsserted(() -> assertThat(Integer.parseInt(this.server.queryForString(database,
						"SELECT count(*) FROM pg_logical_slot_peek_changes('" + slot
								+ "', NULL, NULL) WHERE data = 'message: transactional: " + (transactional ? 1 : 0)
								+ " prefix: sk_test, sz: 4 content:beat'")))
					.isGreaterThanOrEqualTo(3));
			HeartbeatStatus status = engine.status("orders");
			assertThat(status.failures()).isZero();
			assertThat(status.serverVersion()).startsWith(Integer.toString(this.server.majorVersion()));
		}
	}

	@Test
	void lsnAdvancesWithEveryHeartbeat() {
		String database = this.server.createDatabase();
		try (HeartbeatEngine engine = HeartbeatEngine
			.started(target("orders", this.server, database, "heartbeat.interval", "50ms"))) {
			await().atMost(Duration.ofSeconds(10)).until(() -> engine.status("orders").emissions() >= 1);
			long first = Lsn.parse(engine.status("orders").lastLsn());
			long emissions = engine.status("orders").emissions();
			await().atMost(Duration.ofSeconds(10)).until(() -> engine.status("orders").emissions() >= emissions + 3);
			assertThat(Lsn.parse(engine.status("orders").lastLsn())).isGreaterThan(first);
		}
	}

	@Test
	void tableModeCreatesTheTableWhenAskedAndMovesItsRow() {
		String database = this.server.createDatabase();
		this.server.execute(database, "CREATE SCHEMA keeper");
		try (HeartbeatEngine engine = HeartbeatEngine
			.started(target("orders", this.server, database, "heartbeat.interval", "100ms", "heartbeat.mode", "table",
					"heartbeat.table", "keeper.beats", "heartbeat.create-table", "true"))) {
			await().atMost(Duration.ofSeconds(10)).until(() -> engine.status("orders").emissions() >= 1);
			String first = this.server.queryForString(database, "SELECT beat_at FROM keeper.beats WHERE id = 1");
			await().atMost(Duration.ofSeconds(10))
				.until(() -> !first
					.equals(this.server.queryForString(database, "SELECT beat_at FROM keeper.beats WHERE id = 1")));
			assertThat(this.server.queryForString(database, "SELECT count(*) FROM keeper.beats")).isEqualTo("1");
		}
	}

	@Test
	void tableModeWithoutTheTableFailsClearlyAndCreatesNothing() {
		String database = this.server.createDatabase();
		try (HeartbeatEngine engine = HeartbeatEngine
			.started(target("orders", this.server, database, "heartbeat.interval", "100ms", "heartbeat.mode", "table",
					"heartbeat.backoff.min", "50ms", "heartbeat.backoff.max", "100ms"))) {
			await().atMost(Duration.ofSeconds(10)).until(() -> engine.status("orders").failures() >= 2);
			HeartbeatStatus status = engine.status("orders");
			assertThat(status.lastError().sqlState()).isEqualTo("42P01");
			assertThat(status.lastError().message()).contains("slotkeeper_heartbeat");
			assertThat(status.emissions()).isZero();
		}
		assertThat(this.server.queryForString(database, "SELECT to_regclass('public.slotkeeper_heartbeat')")).isNull();
	}

	// Sessions search only pg_catalog: the operator's statement names its table with the
	// schema.
	@Test
	void queryModeRunsTheOperatorsStatement() {
		String database = this.server.createDatabase();
		this.server.execute(database, "CREATE TABLE beats (n int NOT NULL)", "INSERT INTO beats VALUES (0)");
		try (HeartbeatEngine engine = HeartbeatEngine
			.started(target("orders", this.server, database, "heartbeat.interval", "50ms", "heartbeat.mode", "query",
					"heartbeat.query", "UPDATE public.beats SET n = n + 1"))) {
			await().atMost(Duration.ofSeconds(10)).until(() -> engine.status("orders").emissions() >= 3);
			assertThat(Integer.parseInt(this.server.queryForString(database, "SELECT n FROM beats")))
				.isGreaterThanOrEqualTo(3);
			assertThat(engine.status("orders").lastLsn()).matches("[0-9A-F]+/[0-9A-F]+");
		}
	}

	@Test
	void keepsOneSessionPerTargetNamedSlotKeeper() {
		String database = this.server.createDatabase();
		try (HeartbeatEngine engine = HeartbeatEngine
			.started(target("orders", this.server, database, "heartbeat.interval", "50ms"))) {
			await().atMost(Duration.ofSeconds(10)).until(() -> engine.status("orders").emissions() >= 5);
			assertThat(engine.status("orders").connectionAttempts()).isEqualTo(1);
			assertThat(this.server.queryForString(database,
					"SELECT count(*) FROM pg_stat_activity WHERE application_name = 'slot-keeper' AND datname = '"
							+ database + "'"))
				.isEqualTo("1");
		}
	}

}
