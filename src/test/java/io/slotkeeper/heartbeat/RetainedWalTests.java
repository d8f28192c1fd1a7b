package io.slotkeeper.heartbeat;

import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import io.slotkeeper.testbed.LogicalConsumer;
import io.slotkeeper.testbed.PostgresServer;
import io.slotkeeper.testbed.PostgresTestBed;

import static io.slotkeeper.testbed.TestTargets.target;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The point of the product: an idle database's slot pins WAL that a busy neighbour
 * writes, unless slot-keeper gives its consumer something to confirm.
 */
@Tag("pg-compat")
class RetainedWalTests {

	private static final long WINDOW_BYTES = 64L * 1024 * 1024;

	@Test
	void heartbeatKeepsIdleSlotsBoundedWhileAnUnkeptSlotGrows() throws Exception {
		try (PostgresServer server = PostgresTestBed.dedicated(java.util.Map.of())) {
			String unkept = idleDatabase(server, "unkept", false);
			String messages = idleDatabase(server, "messages", false);
			String table = idleDatabase(server, "tables", true);
			String busy = server.createDatabase();
			server.execute(busy, "CREATE TABLE load (id bigserial PRIMARY KEY, payload text NOT NULL)");
			try (LogicalConsumer unkeptConsumer = new LogicalConsumer(server, unkept, "unkept", "pub", true);
					LogicalConsumer messageConsumer = new LogicalConsumer(server, messages, "messages", "pub", true);
					LogicalConsumer tableConsumer = new LogicalConsumer(server, table, "tables", "pub", false);
					HeartbeatEngine engine = HeartbeatEngine
						.started(target("messages", server, messages, "heartbeat.interval", "250ms"), target("tables",
								server, table, "heartbeat.interval", "250ms", "heartbeat.mode", "table"))) {
				await().atMost(Duration.ofSeconds(10))
					.until(() -> "3".equals(server.queryForString("postgres",
							"SELECT count(*) FROM pg_replication_slots WHERE active")));
				long unkeptStart = restartLsn(server, "unkept");
				long messagesStart = restartLsn(server, "messages");
				long tablesStart = restartLsn(server, "tables");
				AtomicLong batches = new AtomicLong();
				ScheduledExecutorService writer = Executors.newSingleThreadScheduledExecutor();
				// About 5 MB/s into the neighbour; every 15 batches a CHECKPOINT logs the
				// running-transactions
				// record that lets slots advance, as the background writer does every 15
				// s on a real server.
				writer.scheduleAtFixedRate(() -> {
					String insert = "INSERT INTO load (payload) SELECT repeat(md5(random()::text), 32) FROM generate_series(1, 400)";
					server.execute(busy, (batches.incrementAndGet() % 15 == 0) ? new String[] { insert, "CHECKPOINT" }
							: new String[] { insert });
				}, 0, 100, TimeUnit.MILLISECONDS);
				try {
					await().atMost(Duration.ofMinutes(2))
						.pollInterval(Duration.ofMillis(200))
						.until(() -> retained(server, "unkept") >= WINDOW_BYTES);
				}
				finally {
					writer.shutdownNow();
					writer.awaitTermination(10, TimeUnit.SECONDS);
				}
				long unkeptRetained = retained(server, "unkept");
				long messagesRetained = retained(server, "messages");
				long tablesRetained = retained(server, "tables");
				System.out.printf(
						"retained WAL after %d MB written next door (PG %d): no heartbeat %d bytes,"
								+ " message heartbeat %d bytes, table heartbeat %d bytes; %d/%d messages confirmed%n",
						WINDOW_BYTES >> 20, server.majorVersion(), unkeptRetained, messagesRetained, tablesRetained,
						messageConsumer.received(), tableConsumer.received());
				assertThat(restartLsn(server, "unkept")).as("the unkept slot never moves").isEqualTo(unkeptStart);
				assertThat(unkeptConsumer.received()).isZero();
				assertThat(restartLsn(server, "messages")).as("message heartbeats move their slot")
					.isGreaterThan(messagesStart);
				assertThat(restartLsn(server, "tables")).as("table heartbeats move their slot")
					.isGreaterThan(tablesStart);
				assertThat(messagesRetained).isLessThan(unkeptRetained / 4);
				assertThat(tablesRetained).isLessThan(unkeptRetained / 4);
				assertThat(engine.status("messages").failures()).isZero();
				assertThat(engine.status("tables").failures()).isZero();
			}
		}
	}

	private static String idleDatabase(PostgresServer server, String slot, boolean heartbeatTableInPublication) {
		String database = server.createDatabase();
		if (heartbeatTableInPublication) {
			server.execute(database,
					"CREATE TABLE slotkeeper_heartbeat (id integer PRIMARY KEY, beat_at timestamptz NOT NULL)",
					"CREATE PUBLICATION pub FOR TABLE slotkeeper_heartbeat");
		}
		else {
			server.execute(database, "CREATE TABLE orders (id bigserial PRIMARY KEY)",
					"CREATE PUBLICATION pub FOR TABLE orders");
		}
		server.execute(database, "SELECT pg_create_logical_replication_slot('" + slot + "', 'pgoutput')");
		return database;
	}

	private static long restartLsn(PostgresServer server, String slot) {
		return Long.parseLong(server.queryForString("postgres",
				"SELECT restart_lsn - '0/0'::pg_lsn FROM pg_replication_slots WHERE slot_name = '" + slot + "'"));
	}

	private static long retained(PostgresServer server, String slot) {
		return Long.parseLong(server.queryForString("postgres",
				"SELECT pg_current_wal_lsn() - restart_lsn FROM pg_replication_slots WHERE slot_name = '" + slot
						+ "'"));
	}

}
