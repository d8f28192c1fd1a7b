package io.slotkeeper.outage;

import java.time.Duration;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;

import io.slotkeeper.SlotKeeperApplication;
import io.slotkeeper.audit.AuditEntry;
import io.slotkeeper.audit.AuditJournal;
import io.slotkeeper.testbed.LogicalConsumer;
import io.slotkeeper.testbed.PostgresServer;
import io.slotkeeper.testbed.PostgresTestBed;
import io.slotkeeper.testbed.ReplicatedServer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * A WAL-limit raise meets a switchover: {@code ALTER SYSTEM} wrote the raise into the old
 * primary's own {@code postgresql.auto.conf}, which is not replicated. Found by the
 * soak's design: the old primary, now the standby, would take the raised limit back into
 * service at the next switchover, with no raise recorded to put it back.
 */
class KeepSizeAfterSwitchoverTests {

	@Test
	void aRaiseLeftOnTheFormerPrimaryIsPutBackThereAndTheNewPrimaryIsRaisedOnItsOwn() throws Exception {
		try (PostgresServer probe = PostgresTestBed.dedicated(Map.of())) {
			assumeTrue(probe.majorVersion() >= 17, "the replicated test server needs PostgreSQL 17");
		}
		try (ReplicatedServer server = new ReplicatedServer(Map.of("max_slot_wal_keep_size", "64MB"))) {
			server.execute("postgres", "CREATE DATABASE app");
			server.execute("app", "CREATE TABLE churn (id bigserial PRIMARY KEY, pad text)",
					"CREATE PUBLICATION cdc FOR TABLE churn",
					"SELECT pg_create_logical_replication_slot('guarded', 'pgoutput', false, false, true)");
			LogicalConsumer consumer = new LogicalConsumer(server, "app", "guarded", "cdc", false);
			try (ConfigurableApplicationContext app = start(server)) {
				// Its consumer moves the slot, so that the standby's copy becomes
				// persistent and survives the switch.
				await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(500)).until(() -> {
					server.execute("app", "INSERT INTO churn (pad) VALUES ('x')");
					return "true".equals(server.currentStandby()
						.queryForString("postgres", "SELECT (synced AND NOT"
								+ " temporary)::text FROM pg_replication_slots WHERE slot_name = 'guarded'"));
				});
				consumer.close();
				PostgresServer former = server.primary();
				awaitRaised(server, former);
				// The server shows the raise once it reloaded, a moment before it is
				// audited.
				await().atMost(Duration.ofSeconds(5))
					.untilAsserted(() -> assertThat(audit(app))
						.anySatisfy((entry) -> assertThat(entry.detail()).startsWith("raised;")));

				server.switchOver();

				await("the raise put back on the former primary, now the standby").atMost(Duration.ofSeconds(30))
					.pollInterval(Duration.ofMillis(500))
					.untilAsserted(() -> assertThat(keepSize(former)).isEqualTo("64MB"));
				assertThat(server.currentStandby()).isSameAs(former);
				await().atMost(Duration.ofSeconds(5))
					.untilAsserted(() -> assertThat(audit(app)).anySatisfy((entry) -> assertThat(entry.detail())
						.isEqualTo("put back on replica r1, the former primary the raise was"
								+ " made on: ALTER SYSTEM SET max_slot_wal_keep_size = '64MB'")));
				assertThat(audit(app)).noneMatch((entry) -> entry.detail().contains("someone changed it"));
				// The consumer is still gone: the new primary's own limit is raised for
				// it.
				awaitRaised(server, server.primary());
			}
		}
	}

	private static void awaitRaised(ReplicatedServer server, PostgresServer node) {
		await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(200)).until(() -> {
			server.execute("app", "INSERT INTO churn (pad) SELECT repeat('x', 500) FROM generate_series(1, 2000)");
			return "1GB".equals(keepSize(node));
		});
	}

	private static String keepSize(PostgresServer node) {
		return node.queryForString("postgres", "SHOW max_slot_wal_keep_size");
	}

	private static List<AuditEntry> audit(ConfigurableApplicationContext app) {
		return app.getBean(AuditJournal.class)
			.entries()
			.stream()
			.filter((entry) -> entry.action().equals(KeepSizeGuard.ACTION))
			.toList();
	}

	private static ConfigurableApplicationContext start(ReplicatedServer server) {
		return new SpringApplicationBuilder(SlotKeeperApplication.class)
			.run("--server.port=0", "--management.server.port=0", "--slotkeeper.targets[0].name=app",
					"--slotkeeper.targets[0].url=" + server.jdbcUrl("app"),
					"--slotkeeper.targets[0].username=" + server.user(), "--slotkeeper.targets[0].replicas[0].name=r1",
					"--slotkeeper.targets[0].replicas[0].url=jdbc:postgresql://127.0.0.1:" + server.standbyPort()
							+ "/app",
					"--slotkeeper.targets[0].replicas[0].username=" + server.user(),
					"--slotkeeper.targets[0].slots-poll-interval=200ms",
					"--slotkeeper.targets[0].heartbeat.interval=500ms", "--slotkeeper.targets[0].slots[0].name=guarded",
					"--slotkeeper.targets[0].slots[0].on-outage.raise-keep-size-to=1GB",
					"--slotkeeper.targets[0].slots[0].on-outage.when-budget-below=1h", "--logging.level.root=WARN");
	}

}
