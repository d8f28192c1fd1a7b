package io.slotkeeper.lanes;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The lanes bound the threads, keep hung work away from quick work, and keep retries from
 * first connections.
 */
class WorkerLanesTests {

	@Test
	void hungSlowWorkNeitherDelaysQuickWorkNorAddsThreads() throws Exception {
		WorkerLanes lanes = new WorkerLanes("test", new WorkerLanes.Sizes(2, 2, 1));
		CountDownLatch hang = new CountDownLatch(1);
		try {
			for (int i = 0; i < 50; i++) {
				lanes.execute(Lane.RETRY, () -> hold(hang));
			}
			CountDownLatch quick = new CountDownLatch(100);
			for (int i = 0; i < 100; i++) {
				lanes.execute(Lane.QUICK, quick::countDown);
			}
			assertThat(quick.await(5, TimeUnit.SECONDS)).as("quick work done while 50 runs hang").isTrue();
			assertThat(lanes.threads()).isLessThanOrEqualTo(5);
		}
		finally {
			hang.countDown();
			lanes.shutdown();
			assertThat(lanes.awaitTermination(Duration.ofSeconds(5))).isTrue();
		}
	}

	@Test
	void retriesNeverTakeTheThreadsOfFirstConnections() throws Exception {
		WorkerLanes lanes = new WorkerLanes("test", new WorkerLanes.Sizes(1, 1, 1));
		CountDownLatch hang = new CountDownLatch(1);
		try {
			for (int i = 0; i < 10; i++) {
				lanes.execute(Lane.RETRY, () -> hold(hang));
			}
			CountDownLatch connected = new CountDownLatch(3);
			for (int i = 0; i < 3; i++) {
				lanes.execute(Lane.CONNECT, connected::countDown);
			}
			assertThat(connected.await(5, TimeUnit.SECONDS)).as("first connections while ten retries hang").isTrue();
			assertThat(lanes.threads()).isLessThanOrEqualTo(3);
		}
		finally {
			hang.countDown();
			lanes.shutdownNow();
		}
	}

	private static void hold(CountDownLatch latch) {
		try {
			latch.await();
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
	}

}
