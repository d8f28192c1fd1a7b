package io.slotkeeper.watching;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Clock;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.Test;

import io.slotkeeper.lanes.LaneWatch;
import io.slotkeeper.testbed.PostgresServer;
import io.slotkeeper.testbed.PostgresTestBed;
import io.slotkeeper.testbed.TcpProxy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A poll duty whose statement hangs (a real one, into a stalled network, on a connection
 * without a socket timeout) holds its target's lane only until its bound: then the next
 * poll's duty of that kind runs, on a pool made anew, while other targets' duties were
 * never held.
 */
class DutyLanesTests {

	@Test
	void aHungGuardRoundIsGivenUpAtItsBoundAndTheNextRoundRuns() throws Exception {
		PostgresServer server = PostgresTestBed.shared();
		AtomicInteger ran = new AtomicInteger();
		CountDownLatch other = new CountDownLatch(1);
		try (TcpProxy network = new TcpProxy(server.host(), server.port());
				LaneWatch lanes = new LaneWatch(new SimpleMeterRegistry(), Clock.systemUTC());
				Connection untimed = server.connectThrough(network.port(), "postgres")) {
			DutyLanes dutyLanes = DutyLanes.pooled(lanes, Duration.ofMillis(30));
			network.stall();
			CountDownLatch hanging = new CountDownLatch(1);
			dutyLanes.guardKeepSize("orders", () -> {
				hanging.countDown();
				hang(untimed);
			});
			assertThat(hanging.await(5, TimeUnit.SECONDS)).isTrue();
			dutyLanes.guardKeepSize("orders", ran::incrementAndGet);
			// The one lane thread is held: another target's round queues until the pool
			// is made anew.
			dutyLanes.guardKeepSize("billing", other::countDown);
			assertThat(ran.get()).as("no second round of a target beside the hung one").isZero();

			await().atMost(Duration.ofSeconds(5)).until(() -> !lanes.overdue().isEmpty());
			LaneWatch.Overdue hung = lanes.overdue().get(0);
			assertThat(hung.lane()).isEqualTo("keep-size");
			assertThat(hung.bound()).isEqualTo(Duration.ofMillis(300));
			await().atMost(Duration.ofSeconds(5)).untilAsserted(() -> {
				dutyLanes.guardKeepSize("orders", ran::incrementAndGet);
				assertThat(ran.get()).as("the next poll's round runs once the hung one is given up").isPositive();
			});
			assertThat(other.await(5, TimeUnit.SECONDS)).as("the queued round of another target ran too").isTrue();
			network.resume();
			await().atMost(Duration.ofSeconds(5)).until(() -> lanes.overdue().isEmpty());
			dutyLanes.close();
		}
	}

	// A heal or handover stopped midway could leave its connector stopped: past its bound
	// it is said, never cut short
	// nor run twice beside itself.
	@Test
	void aHealRoundPastItsBoundIsReportedButNeitherInterruptedNorRunTwice() throws Exception {
		AtomicInteger ran = new AtomicInteger();
		AtomicBoolean interrupted = new AtomicBoolean();
		CountDownLatch started = new CountDownLatch(1);
		CountDownLatch release = new CountDownLatch(1);
		try (LaneWatch lanes = new LaneWatch(new SimpleMeterRegistry(), Clock.systemUTC())) {
			DutyLanes dutyLanes = DutyLanes.pooled(lanes, Duration.ofMillis(5));
			dutyLanes.heal("orders", () -> {
				started.countDown();
				while (release.getCount() > 0) {
					try {
						release.await();
					}
					catch (InterruptedException ex) {
						interrupted.set(true);
					}
				}
			});
			assertThat(started.await(5, TimeUnit.SECONDS)).isTrue();
			await().atMost(Duration.ofSeconds(5)).until(() -> !lanes.overdue().isEmpty());
			assertThat(lanes.overdue().get(0).lane()).isEqualTo("heal");
			await("the next poll's heal of the target").during(Duration.ofSeconds(2))
				.atMost(Duration.ofSeconds(3))
				.until(() -> {
					dutyLanes.heal("orders", ran::incrementAndGet);
					return ran.get() == 0;
				});
			assertThat(interrupted).isFalse();
			release.countDown();
			await().atMost(Duration.ofSeconds(5)).until(() -> lanes.overdue().isEmpty());
			await().atMost(Duration.ofSeconds(5)).untilAsserted(() -> {
				dutyLanes.heal("orders", ran::incrementAndGet);
				assertThat(ran.get()).isPositive();
			});
			dutyLanes.close();
		}
	}

	private static void hang(Connection untimed) {
		try (Statement statement = untimed.createStatement()) {
			statement.execute("SELECT 1");
		}
		catch (SQLException ex) {
			throw new IllegalStateException(ex);
		}
	}

}
