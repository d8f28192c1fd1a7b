package io.slotkeeper.watching;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.Test;

import org.springframework.web.client.RestClient;

import io.slotkeeper.audit.AuditJournal;
import io.slotkeeper.audit.Auditor;
import io.slotkeeper.config.TargetProperties;
import io.slotkeeper.connect.ConnectorClient;
import io.slotkeeper.fleet.Fleet;
import io.slotkeeper.healing.Healing;
import io.slotkeeper.lanes.LaneWatch;
import io.slotkeeper.slot.changing.SlotService;
import io.slotkeeper.testbed.PostgresServer;
import io.slotkeeper.testbed.PostgresTestBed;

import static io.slotkeeper.testbed.TestTargets.fleet;
import static io.slotkeeper.testbed.TestTargets.target;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * Each target polls on its own schedule: dead targets never delay a live one, and a
 * failed poll keeps the last slot gauges, saying how old they are.
 */
class SlotPollerTests {

	private final SimpleMeterRegistry registry = new SimpleMeterRegistry();

	private final ConnectorClient connectors = new ConnectorClient(RestClient.builder(), Duration.ofMillis(10),
			java.time.Clock.systemUTC());

	private SlotPoller poller(Fleet fleet) {
		Clock clock = Clock.systemUTC();
		Healing healing = new Healing(new SlotService(this.connectors, this.registry, clock),
				new Auditor(new AuditJournal(10), clock), this.registry, clock);
		return new SlotPoller(fleet, healing, new SlotWatch(this.connectors, clock),
				new LaneWatch(this.registry, clock), this.registry, clock);
	}

	private double age(String target) {
		return this.registry.get("slotkeeper.slot.poll.age").tag("target", target).gauge().value();
	}

	@Test
	void twentyDeadTargetsNeverDelayALiveTargetsPollBeyondItsIntervalAndASecond() throws IOException {
		PostgresServer server = PostgresTestBed.shared();
		List<TargetProperties> targets = new ArrayList<>();
		targets.add(target("live", server, server.createDatabase(), "slots-poll-interval", "200ms"));
		for (int i = 0; i < 20; i++) {
			// Default timeouts: borrowing a connection to a dead target waits about 11 s.
			targets.add(target("dead-" + i, "jdbc:postgresql://127.0.0.1:" + closedPort() + "/x", "slots-poll-interval",
					"200ms"));
		}
		try (Fleet fleet = fleet(targets.toArray(TargetProperties[]::new))) {
			SlotPoller poller = poller(fleet);
			poller.start();
			try {
				await().atMost(Duration.ofSeconds(10)).until(() -> poller.snapshot("live").isPresent());
				AtomicLong worst = new AtomicLong();
				await().during(Duration.ofSeconds(6)).atMost(Duration.ofSeconds(8)).until(() -> {
					worst.accumulateAndGet(Math.round(age("live") * 1000), Math::max);
					return age("live") <= 1.2;
				});
				System.out.printf("with 20 dead targets the live target's last poll was at most %d ms old"
						+ " (interval 200 ms)%n", worst.get());
				assertThat(poller.snapshot("live").get().error()).isNull();
			}
			finally {
				poller.stop();
			}
		}
	}

	@Test
	void aHungKafkaConnectDelaysNoTargetsPoll() throws IOException {
		PostgresServer server = PostgresTestBed.shared();
		String database = server.createDatabase();
		try (io.slotkeeper.testbed.SilentServer connect = new io.slotkeeper.testbed.SilentServer()) {
			List<TargetProperties> targets = new ArrayList<>();
			for (int i = 0; i < 50; i++) {
				// Kafka Connect accepts and never answers: each status call waits its 10
				// s timeout.
				targets.add(target("hung-" + i, server, database, "slots-poll-interval", "500ms", "slots[0].name",
						"cdc", "slots[0].connector.url", "http://127.0.0.1:" + connect.port(),
						"slots[0].connector.name", "c"));
			}
			for (int i = 0; i < 10; i++) {
				targets.add(target("plain-" + i, server, database, "slots-poll-interval", "500ms"));
			}
			try (Fleet fleet = fleet(targets.toArray(TargetProperties[]::new))) {
				SlotPoller poller = poller(fleet);
				poller.start();
				try {
					await().atMost(Duration.ofSeconds(20))
						.until(() -> fleet.all()
							.stream()
							.allMatch((target) -> poller.snapshot(target.name()).isPresent()));
					AtomicLong worst = new AtomicLong();
					// Past the first 10 s timeouts, so that a poll waiting for Connect
					// would show.
					await().during(Duration.ofSeconds(12)).atMost(Duration.ofSeconds(15)).until(() -> {
						double oldest = fleet.all()
							.stream()
							.mapToDouble((target) -> age(target.name()))
							.max()
							.orElse(0);
						worst.accumulateAndGet(Math.round(oldest * 1000), Math::max);
						return oldest <= 1.0;
					});
					System.out.printf("with Kafka Connect hung for 50 of 60 targets, the oldest last poll of any target"
							+ " was %d ms old (interval 500 ms)%n", worst.get());
				}
				finally {
					poller.stop();
				}
			}
		}
	}

	@Test
	void aPollerStoppedAndStartedAgainStillHealsOnItsFollowUpThreads() {
		PostgresServer server = PostgresTestBed.shared();
		String database = server.createDatabase();
		String slot = "again_" + database;
		server.execute(database, "SELECT pg_create_logical_replication_slot('" + slot + "', 'pgoutput')");
		try (Fleet fleet = fleet(target("again", server, database, "slots-poll-interval", "200ms", "slots[0].name",
				slot, "slots[0].on-missing", "recreate"))) {
			fleet.get("again").ownership().learnt(true);
			SlotPoller poller = poller(fleet);
			poller.start();
			await().atMost(Duration.ofSeconds(10)).until(() -> poller.snapshot("again").isPresent());
			// As a paused test context is, or a lifecycle restart: the duty threads
			// went with the stop.
			poller.stop();
			poller.start();
			try {
				server.execute(database, "SELECT pg_drop_replication_slot('" + slot + "')");
				await().atMost(Duration.ofSeconds(10))
					.until(() -> "1".equals(server.queryForString(database,
							"SELECT count(*) FROM pg_replication_slots WHERE slot_name = '" + slot + "'")));
			}
			finally {
				poller.stop();
			}
			server.execute(database, "SELECT pg_drop_replication_slot('" + slot + "')");
		}
	}

	@Test
	void aFailedPollKeepsTheLastGaugesCountsTheFailureAndSaysHowOldTheyAre() {
		try (PostgresServer server = PostgresTestBed.dedicated(Map.of())) {
			assumeTrue(server.supportsFaults(), "this backend cannot stop servers");
			server.execute("postgres", "SELECT pg_create_logical_replication_slot('kept', 'pgoutput')");
			try (Fleet fleet = fleet(target("orders", server, "postgres"))) {
				SlotPoller poller = poller(fleet);
				poller.poll("orders");
				SlotSnapshot good = poller.snapshot("orders").orElseThrow();
				assertThat(good.error()).isNull();
				double retained = this.registry.get("slotkeeper.slot.retained.wal").tag("slot", "kept").gauge().value();
				server.stop();
				poller.poll("orders");
				SlotSnapshot failed = poller.snapshot("orders").orElseThrow();
				assertThat(failed.error()).isNotNull();
				assertThat(failed.slots()).as("the last good poll's slots").isEqualTo(good.slots());
				assertThat(failed.lastGoodAt()).isEqualTo(good.at());
				assertThat(this.registry.get("slotkeeper.slot.retained.wal").tag("slot", "kept").gauge().value())
					.as("the gauge stays, so alerts on it do not resolve")
					.isEqualTo(retained);
				assertThat(this.registry.get("slotkeeper.slot.poll.failures").tag("target", "orders").counter().count())
					.isEqualTo(1);
				assertThat(age("orders")).isGreaterThanOrEqualTo(0);
				server.start();
			}
		}
	}

	private static int closedPort() throws IOException {
		try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
			return socket.getLocalPort();
		}
	}

}
