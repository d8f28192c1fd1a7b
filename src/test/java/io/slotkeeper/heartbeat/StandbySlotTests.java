package io.slotkeeper.heartbeat;

import java.time.Duration;
import java.util.Map;

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
 * A logical slot on a standby (PostgreSQL 16+) with a confirming consumer moves only
 * while the primary produces WAL: slot-keeper heartbeating the primary, with the standby
 * snapshot, is what moves it.
 */
class StandbySlotTests {

	@Test
	void standbySlotAdvancesOnlyWhileThePrimaryIsHeartbeated() throws Exception {
		try (PostgresServer primary = PostgresTestBed.dedicated(Map.of())) {
			assumeTrue(primary.supportsFaults() && primary.majorVersion() >= 16, "logical decoding on a standby: 16+");
			String database = primary.createDatabase();
			primary.execute(database, "CREATE TABLE orders (id bigserial PRIMARY KEY)",
					"CREATE PUBLICATION pub FOR TABLE orders");
			try (PostgresServer standby = primary.standby()) {
				await().atMost(Duration.ofSeconds(10))
					.until(() -> "1".equals(standby.queryForString("postgres",
							"SELECT count(*) FROM pg_database WHERE datname = '" + database + "'")));
				Thread creator = new Thread(() -> standby.execute(database,
						"SELECT pg_create_logical_replication_slot('on_standby', 'pgoutput')"));
				creator.start();
				await().atMost(Duration.ofSeconds(10)).until(() -> {
					primary.execute(database, "SELECT pg_log_standby_snapshot()");
					creator.join(200);
					return !creator.isAlive();
				});
				try (LogicalConsumer consumer = new LogicalConsumer(standby, database, "on_standby", "pub", true)) {
					String before = confirmed(standby);
					await().during(Duration.ofSeconds(2))
						.atMost(Duration.ofSeconds(4))
						.until(() -> confirmed(standby).equals(before));
					try (HeartbeatEngine engine = HeartbeatEngine.started(target("orders", primary, database,
							"heartbeat.interval", "200ms", "heartbeat.standby-snapshot", "true"))) {
						await().atMost(Duration.ofSeconds(15))
							.until(() -> Lsn.parse(confirmed(standby)) > Lsn.parse(before));
						await().atMost(Duration.ofSeconds(5))
							.untilAsserted(() -> assertThat(engine.status("orders").standbySnapshot()).isEqualTo("ok"));
					}
				}
			}
		}
	}

	private static String confirmed(PostgresServer standby) {
		return standby.queryForString("postgres",
				"SELECT confirmed_flush_lsn FROM pg_replication_slots WHERE slot_name = 'on_standby'");
	}

}
