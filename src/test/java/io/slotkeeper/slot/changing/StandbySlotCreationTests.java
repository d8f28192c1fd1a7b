package io.slotkeeper.slot.changing;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.Test;

import org.springframework.web.client.RestClient;

import io.slotkeeper.connect.ConnectorClient;
import io.slotkeeper.fleet.Fleet;
import io.slotkeeper.replication.SlotView;
import io.slotkeeper.testbed.PostgresServer;
import io.slotkeeper.testbed.PostgresTestBed;

import static io.slotkeeper.testbed.TestTargets.fleet;
import static io.slotkeeper.testbed.TestTargets.target;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * A role with REPLICATION but no right to {@code pg_log_standby_snapshot()} creates a
 * logical slot on a standby: the nudge is refused, so the creation waits for the
 * background writer's running-transactions record (up to 15 s), far longer than a
 * statement may take, and the client must wait as long as the server.
 */
class StandbySlotCreationTests {

	@Test
	void aSlotIsCreatedOnAStandbyWhenTheNudgeIsRefused() throws Exception {
		try (PostgresServer primary = PostgresTestBed.dedicated(Map.of())) {
			assumeTrue(primary.majorVersion() >= 16, "logical slots on a standby need PostgreSQL 16");
			primary.execute("postgres", "CREATE DATABASE app", "CREATE ROLE limited LOGIN REPLICATION");
			primary.execute("app", "CREATE TABLE activity (id bigserial PRIMARY KEY)");
			try (PostgresServer standby = primary.standby();
					Fleet fleet = fleet(target("orders", primary.jdbcUrl("app"), "username", "limited",
							"connection.statement-timeout", "1s", "replicas[0].name", "r1", "replicas[0].url",
							standby.jdbcUrl("app"), "replicas[0].username", "limited"))) {
				await().atMost(Duration.ofSeconds(10))
					.until(() -> "1".equals(standby.queryForString("postgres",
							"SELECT count(*) FROM pg_roles WHERE rolname = 'limited'")));
				// Writes, so that the background writer logs running-transactions records
				// (every 15 s at most).
				ScheduledExecutorService writer = Executors.newSingleThreadScheduledExecutor();
				writer.scheduleAtFixedRate(() -> primary.execute("app", "INSERT INTO activity DEFAULT VALUES"), 0, 100,
						TimeUnit.MILLISECONDS);
				try {
					SlotService slots = new SlotService(
							new ConnectorClient(RestClient.builder(), Duration.ofMillis(10),
									java.time.Clock.systemUTC()),
							new SimpleMeterRegistry(), java.time.Clock.systemUTC());
					long start = System.nanoTime();
					SlotView created = slots.create(fleet.get("orders"), "r1",
							new SlotSpec("on_standby", true, "pgoutput", false, false));
					System.out.printf(
							"slot created on the PG %d standby in %d ms without the snapshot nudge"
									+ " (statement timeout 1 s)%n",
							primary.majorVersion(), (System.nanoTime() - start) / 1_000_000);
					assertThat(created.node()).isEqualTo("r1");
					assertThat(standby.queryForString("postgres",
							"SELECT count(*) FROM pg_replication_slots WHERE slot_name = 'on_standby'"))
						.isEqualTo("1");
				}
				finally {
					writer.shutdownNow();
					writer.awaitTermination(10, TimeUnit.SECONDS);
				}
			}
		}
	}

}
