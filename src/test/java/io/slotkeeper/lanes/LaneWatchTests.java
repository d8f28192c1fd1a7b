package io.slotkeeper.lanes;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Clock;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.Test;

import io.slotkeeper.testbed.PostgresServer;
import io.slotkeeper.testbed.PostgresTestBed;
import io.slotkeeper.testbed.TcpProxy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A round of a lane whose statement hangs — sent to a real server through a stalled
 * network on a connection with no socket timeout, the one thing slot-keeper's own
 * sessions never are — is reported past its bound with where it waits, its lane is told
 * to go on without it, and it stops being reported once it ends.
 */
class LaneWatchTests {

	private final SimpleMeterRegistry registry = new SimpleMeterRegistry();

	@Test
	void aRoundHungOnAStalledStatementIsReportedWithWhereItWaitsAndItsLaneRecovered() throws Exception {
		PostgresServer server = PostgresTestBed.shared();
		AtomicInteger recovered = new AtomicInteger();
		try (TcpProxy network = new TcpProxy(server.host(), server.port());
				LaneWatch lanes = new LaneWatch(this.registry, Clock.systemUTC());
				Connection untimed = server.connectThrough(network.port(), "postgres")) {
			lanes.declare("guard");
			assertThat(overdueGauge("guard")).as("declared lanes are exported from the start").isZero();
			network.stall();
			CompletableFuture<Void> round = CompletableFuture.runAsync(() -> {
				try (LaneWatch.Round watched = lanes.begin("guard", "orders", Duration.ofMillis(300),
						LaneWatch.Recovery.interruptingAndGoingOn(recovered::incrementAndGet));
						Statement statement = untimed.createStatement()) {
					statement.execute("SELECT 1");
				}
				catch (SQLException ex) {
					throw new IllegalStateException(ex);
				}
			});
			await().atMost(Duration.ofSeconds(5)).until(() -> !lanes.overdue().isEmpty());
			LaneWatch.Overdue overdue = lanes.overdue().get(0);
			assertThat(overdue.lane()).isEqualTo("guard");
			assertThat(overdue.target()).isEqualTo("orders");
			assertThat(overdue.running()).isGreaterThan(Duration.ofMillis(300));
			assertThat(overdue.waitsIn()).as("the library call the thread waits in").contains("org.postgresql");
			assertThat(lanes.overdue("orders")).hasSize(1);
			assertThat(lanes.overdue("billing")).isEmpty();
			await().atMost(Duration.ofSeconds(5)).until(() -> recovered.get() == 1);
			assertThat(overdueGauge("guard")).isEqualTo(1);
			assertThat(round).as("a socket read does not end on an interrupt: still hung").isNotDone();

			network.resume();
			round.get();
			assertThat(lanes.overdue()).isEmpty();
			assertThat(overdueGauge("guard")).isZero();
			assertThat(lanes.lastEnded("guard")).isPresent();
			assertThat(recovered.get()).as("recovered once per round").isEqualTo(1);
		}
	}

	@Test
	void aRoundWithinItsBoundIsNeverReported() throws Exception {
		AtomicInteger recovered = new AtomicInteger();
		try (LaneWatch lanes = new LaneWatch(this.registry, Clock.systemUTC());
				Connection timed = PostgresTestBed.shared().connect("postgres")) {
			for (int i = 0; i < 3; i++) {
				try (LaneWatch.Round round = lanes.begin("poll", "orders", Duration.ofSeconds(5),
						LaneWatch.Recovery.interruptingAndGoingOn(recovered::incrementAndGet));
						Statement statement = timed.createStatement()) {
					statement.execute("SELECT pg_sleep(0.2)");
				}
			}
			assertThat(lanes.overdue()).isEmpty();
			assertThat(lanes.longestEnded("poll")).hasValueSatisfying(
					(longest) -> assertThat(longest).isBetween(Duration.ofMillis(200), Duration.ofSeconds(5)));
			assertThat(recovered.get()).isZero();
		}
	}

	private double overdueGauge(String lane) {
		return this.registry.get("slotkeeper.lane.overdue").tag("lane", lane).gauge().value();
	}

}
