package io.slotkeeper.watching;

import java.time.Clock;
import java.time.Duration;
import java.util.Map;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import org.springframework.boot.health.contributor.CompositeHealthContributor;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.web.client.RestClient;

import io.slotkeeper.audit.AuditJournal;
import io.slotkeeper.audit.Auditor;
import io.slotkeeper.connect.ConnectorClient;
import io.slotkeeper.failover.FailoverHealth;
import io.slotkeeper.fleet.Fleet;
import io.slotkeeper.healing.Healing;
import io.slotkeeper.lanes.LaneWatch;
import io.slotkeeper.replication.FailoverReadiness;
import io.slotkeeper.slot.changing.SlotService;
import io.slotkeeper.testbed.PostgresServer;
import io.slotkeeper.testbed.PostgresTestBed;

import static io.slotkeeper.testbed.TestTargets.fleet;
import static io.slotkeeper.testbed.TestTargets.target;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Whether a slot would survive a failover, checked on real streaming standbys: a failover
 * slot is ready once the standby that synchronizes slots holds a permanent synchronized
 * copy; a slot without failover, and a standby that does not synchronize, are named as
 * the reason; before PostgreSQL 17 the check says what it needs.
 */
@Tag("pg-compat")
@Tag("pg-each")
class FailoverReadinessTests {

	@Test
	void aFailoverSlotIsReadyOnceItsStandbyCopyIsSynchronizedAndASlotWithoutFailoverIsReported() {
		try (PostgresServer primary = PostgresTestBed.dedicated(Map.of());
				PostgresServer standby = primary.slotSyncingStandby();
				Fleet fleet = fleet(replicated(primary, standby))) {
			createSlots(primary);
			Watched watched = new Watched(fleet);
			if (primary.majorVersion() < 17) {
				watched.poller.poll("orders");
				assertThat(watched.watch.failover().of("orders", "ready_slot"))
					.isEqualTo(new FailoverReadiness(null, "r1: needs PostgreSQL 17"));
				return;
			}
			long created = System.nanoTime();
			// The standby copies a failover slot once the primary's has moved past a
			// running-transactions record.
			primary.execute("postgres", "CHECKPOINT",
					"SELECT pg_replication_slot_advance('ready_slot', pg_current_wal_lsn())");
			await().atMost(Duration.ofSeconds(60)).until(() -> {
				watched.poller.poll("orders");
				return Boolean.TRUE.equals(watched.watch.failover().of("orders", "ready_slot").failoverReady());
			});
			System.out.printf("failover slot ready on the standby %d ms after it was created and moved%n",
					(System.nanoTime() - created) / 1_000_000);
			assertThat(watched.watch.failover().of("orders", "plain_slot"))
				.isEqualTo(new FailoverReadiness(false, "r1: failover disabled"));
			assertThat(watched.registry.get("slotkeeper.slot.failover.ready")
				.tags("slot", "ready_slot", "node", "r1")
				.gauge()
				.value()).isEqualTo(1);
			assertThat(watched.registry.get("slotkeeper.slot.failover.ready")
				.tags("slot", "plain_slot", "node", "r1")
				.gauge()
				.value()).isZero();
			Health health = ((HealthIndicator) ((CompositeHealthContributor) FailoverHealth.of(fleet.all(),
					watched.watch.failover()))
				.getContributor("orders")).health();
			assertThat(health.getStatus().getCode()).isEqualTo("DOWN");
			assertThat(health.getDetails()).containsEntry("notReady", Map.of("plain_slot", "r1: failover disabled"));
		}
	}

	@Test
	void aStandbyThatDoesNotSynchronizeSlotsIsNamedAsTheReason() {
		try (PostgresServer primary = PostgresTestBed.dedicated(Map.of());
				PostgresServer standby = primary.standby();
				Fleet fleet = fleet(replicated(primary, standby))) {
			createSlots(primary);
			Watched watched = new Watched(fleet);
			watched.poller.poll("orders");
			assertThat(watched.watch.failover().of("orders", "ready_slot")).isEqualTo(
					(primary.majorVersion() >= 17) ? new FailoverReadiness(false, "r1: sync_replication_slots is off")
							: new FailoverReadiness(null, "r1: needs PostgreSQL 17"));
		}
	}

	@Test
	void aStaleSynchronizedStandbySlotsEntryIsNamedAsWhyFailoverConsumersStall() {
		try (PostgresServer primary = PostgresTestBed.dedicated(Map.of());
				PostgresServer standby = primary.standby();
				Fleet fleet = fleet(replicated(primary, standby))) {
			if (primary.majorVersion() < 17) {
				return;
			}
			createSlots(primary);
			// The standby that slot served is gone: the slot stays, inactive.
			primary.execute("postgres", "SELECT pg_create_physical_replication_slot('gone_standby')",
					"ALTER SYSTEM SET synchronized_standby_slots = 'gone_standby'", "SELECT pg_reload_conf()");
			Watched watched = new Watched(fleet);
			await().atMost(Duration.ofSeconds(10)).until(() -> {
				watched.poller.poll("orders");
				return String.valueOf(watched.watch.failover().of("orders", "ready_slot").failoverReason())
					.startsWith(
							"primary: synchronized_standby_slots names gone_standby, not an active, valid physical slot");
			});
			assertThat(watched.watch.failover().of("orders", "plain_slot").failoverReason())
				.as("a slot without failover is not held back by it")
				.doesNotStartWith("primary:");
		}
	}

	// Found by the soak: with max_slot_wal_keep_size below one WAL segment, the base
	// backup's segment switch and
	// checkpoint invalidate the standby's new slot; the standby streams through it all
	// the same (the slot is active),
	// and the primary holds back every failover slot's consumer for good.
	@Test
	void anInvalidatedStandbySlotThatStillStreamsIsNamedAsWhyFailoverConsumersStall() {
		try (PostgresServer primary = PostgresTestBed.dedicated(Map.of())) {
			// Failover slots came with 17; from 18 the server refuses to stream through
			// an invalidated slot, so the
			// standby never starts and nothing stalls unnoticed.
			org.junit.jupiter.api.Assumptions.assumeTrue(primary.majorVersion() == 17,
					"PostgreSQL 17 streams through an invalidated physical slot");
			primary.execute("postgres", "ALTER SYSTEM SET max_slot_wal_keep_size = '1MB'", "SELECT pg_reload_conf()");
			try (PostgresServer standby = primary.slotSyncingStandby();
					Fleet fleet = fleet(replicated(primary, standby))) {
				String slot = "standby_" + primary.port();
				assertThat(
						primary.queryForString("postgres",
								"SELECT active || ' ' || invalidation_reason FROM"
										+ " pg_replication_slots WHERE slot_name = '" + slot + "'"))
					.isEqualTo("true wal_removed");
				createSlots(primary);
				primary.execute("postgres", "ALTER SYSTEM SET synchronized_standby_slots = '" + slot + "'",
						"SELECT pg_reload_conf()");
				Watched watched = new Watched(fleet);
				await().atMost(Duration.ofSeconds(10)).until(() -> {
					watched.poller.poll("orders");
					return String.valueOf(watched.watch.failover().of("orders", "ready_slot").failoverReason())
						.startsWith("primary: synchronized_standby_slots names " + slot
								+ ", not an active, valid physical slot");
				});
			}
		}
	}

	private static io.slotkeeper.config.TargetProperties replicated(PostgresServer primary, PostgresServer standby) {
		return target("orders", primary, "postgres", "replicas[0].name", "r1", "replicas[0].url",
				standby.jdbcUrl("postgres"), "replicas[0].username", standby.user());
	}

	private static void createSlots(PostgresServer primary) {
		primary.execute("postgres",
				(primary.majorVersion() >= 17)
						? "SELECT pg_create_logical_replication_slot('ready_slot', 'pgoutput', false, false, true)"
						: "SELECT pg_create_logical_replication_slot('ready_slot', 'pgoutput')",
				"SELECT pg_create_logical_replication_slot('plain_slot', 'pgoutput')");
	}

	/**
	 * The watch as the application wires it, polled by the test.
	 */
	private static final class Watched {

		final SimpleMeterRegistry registry = new SimpleMeterRegistry();

		final SlotWatch watch;

		final SlotPoller poller;

		Watched(Fleet fleet) {
			ConnectorClient connectors = new ConnectorClient(RestClient.builder(), Duration.ofMillis(10),
					java.time.Clock.systemUTC());
			Clock clock = Clock.systemUTC();
			this.watch = new SlotWatch(connectors, clock);
			this.poller = new SlotPoller(fleet,
					new Healing(new SlotService(connectors, this.registry, clock),
							new Auditor(new AuditJournal(10), clock), this.registry, clock),
					this.watch, new LaneWatch(this.registry, clock), this.registry, clock);
		}

	}

}
