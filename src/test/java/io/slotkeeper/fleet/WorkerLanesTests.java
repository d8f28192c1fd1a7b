package io.slotkeeper.fleet;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The lanes bound the threads, keep hung work away from quick work, and let a first connection go before a retry.
 */
class WorkerLanesTests {

	@Test
	void hungSlowWorkNeitherDelaysQuickWorkNorAddsThreads() throws Exception {
		WorkerLanes lanes = new WorkerLanes("test", 2, 3);
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
	void aFirstConnectionGoesBeforeRetriesQueuedEarlier() throws Exception {
		WorkerLanes lanes = new WorkerLanes("test", 1, 1);
		CountDownLatch busy = new CountDownLatch(1);
		CountDownLatch started = new CountDownLatch(1);
		List<String> order = new CopyOnWriteArrayList<>();
		try {
			lanes.execute(Lane.RETRY, () -> {
				started.countDown();
				hold(busy);
			});
			assertThat(started.await(5, TimeUnit.SECONDS)).isTrue();
			lanes.execute(Lane.RETRY, () -> order.add("retry 1"));
			lanes.execute(Lane.RETRY, () -> order.add("retry 2"));
			lanes.execute(Lane.CONNECT, () -> order.add("connect"));
			busy.countDown();
			await().atMost(Duration.ofSeconds(5)).until(() -> order.size() == 3);
			assertThat(order).containsExactly("connect", "retry 1", "retry 2");
		}
		finally {
			busy.countDown();
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
