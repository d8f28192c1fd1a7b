package io.slotkeeper.testbed;

import java.time.Duration;
import java.util.Map;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

class ReplicatedServerTests {

	@Test
	void aFailoverSlotSurvivesASwitchoverAndTheWayBackWithTheFormerPrimaryStreamingAsTheStandby() {
		assumeTrue("embedded".equals(System.getProperty("testbed.backend", "embedded")),
				"the embedded backend builds standbys");
		try (PostgresServer probe = PostgresTestBed.dedicated(Map.of())) {
			assumeTrue(probe.majorVersion() >= 17, "failover slots need PostgreSQL 17");
		}
		try (ReplicatedServer server = new ReplicatedServer(Map.of("max_slot_wal_keep_size", "1MB"))) {
			int first = server.primary().port();
			assertThat(server.currentStandby().queryForString("postgres", "SHOW max_slot_wal_keep_size"))
				.isEqualTo("1MB");
			server.execute("postgres", "CREATE TABLE t (v int)",
					"SELECT pg_create_logical_replication_slot('cdc', 'pgoutput', false, false, true)");
			awaitSynchronized(server);
			server.execute("postgres", "INSERT INTO t VALUES (1)");

			server.switchOver();

			assertThat(server.primary().port()).isNotEqualTo(first);
			assertThat(server.queryForString("postgres", "SELECT pg_is_in_recovery()::text")).isEqualTo("false");
			assertThat(server.queryForString("postgres", "SELECT count(*) FROM t")).isEqualTo("1");
			assertThat(server.queryForString("postgres",
					"SELECT failover::text FROM pg_replication_slots" + " WHERE slot_name = 'cdc'"))
				.isEqualTo("true");
			assertThat(server.currentStandby().port()).isEqualTo(first);
			awaitStreaming(server);
			assertThat(server.currentStandby()
				.queryForString("postgres",
						"SELECT count(*) FROM pg_replication_slots" + " WHERE slot_type = 'physical'"))
				.as("the former primary's own physical slot is gone")
				.isEqualTo("0");
			// Its own copy of the slot blocks the synchronization until it is dropped
			// (slot-keeper's on-orphan: drop).
			server.currentStandby().execute("postgres", "SELECT pg_drop_replication_slot('cdc')");
			awaitSynchronized(server);
			server.execute("postgres", "INSERT INTO t VALUES (2)");

			server.switchOver();

			assertThat(server.primary().port()).isEqualTo(first);
			assertThat(server.switchovers()).isEqualTo(2);
			assertThat(server.queryForString("postgres", "SELECT count(*) FROM t")).isEqualTo("2");
			assertThat(server.queryForString("postgres",
					"SELECT count(*) FROM pg_replication_slots" + " WHERE slot_name = 'cdc'"))
				.isEqualTo("1");
			awaitStreaming(server);
		}
	}

	// The standby keeps its copy temporary until the primary's slot moves past what it
	// has replayed.
	private static void awaitSynchronized(ReplicatedServer server) {
		await().atMost(Duration.ofSeconds(90)).pollInterval(Duration.ofMillis(500)).until(() -> {
			server.execute("postgres", "SELECT pg_replication_slot_advance('cdc', pg_current_wal_lsn())");
			return "true".equals(server.currentStandby()
				.queryForString("postgres", "SELECT (synced AND NOT temporary)"
						+ "::text FROM pg_replication_slots WHERE slot_name = 'cdc'"));
		});
	}

	private static void awaitStreaming(ReplicatedServer server) {
		await().atMost(Duration.ofSeconds(30))
			.until(() -> "true".equals(server.queryForString("postgres",
					"SELECT (active AND wal_status <> 'lost')::text FROM pg_replication_slots WHERE slot_name = '"
							+ ReplicatedServer.STANDBY_SLOT + "'")));
	}

}
