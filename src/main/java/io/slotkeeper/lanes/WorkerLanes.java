package io.slotkeeper.lanes;

import io.slotkeeper.support.DaemonThreads;

import java.time.Duration;
import java.util.EnumMap;
import java.util.Map;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

/**
 * A bounded number of threads for many targets' runs, in three {@link Lane lanes}, so
 * that the runs that may block for a timeout never delay the ones that do not: a run on
 * an open, healthy session takes a millisecond (quick); one that must connect may hold
 * its thread for the connect timeout (connect); one whose last run failed is likely to
 * again (retry), and retries never take the threads of first connections and
 * reconnections. Each lane queues beyond its threads, so a fleet with many dead or hung
 * targets costs a fixed number of threads, not one each.
 */
final class WorkerLanes {

	private final Map<Lane, ThreadPoolExecutor> lanes = new EnumMap<>(Lane.class);

	WorkerLanes(String name, Sizes sizes) {
		this.lanes.put(Lane.QUICK, lane(sizes.quick(), DaemonThreads.named(name + "-")));
		this.lanes.put(Lane.CONNECT, lane(sizes.connect(), DaemonThreads.named(name + "-connect-")));
		this.lanes.put(Lane.RETRY, lane(sizes.retry(), DaemonThreads.named(name + "-retry-")));
	}

	/**
	 * Queues a run.
	 * @param lane which lane it belongs to
	 * @param run the run
	 * @throws java.util.concurrent.RejectedExecutionException when stopping
	 */
	void execute(Lane lane, Runnable run) {
		this.lanes.get(lane).execute(run);
	}

	int threads() {
		return this.lanes.values().stream().mapToInt(ThreadPoolExecutor::getPoolSize).sum();
	}

	void shutdown() {
		this.lanes.values().forEach(ThreadPoolExecutor::shutdown);
	}

	boolean awaitTermination(Duration wait) throws InterruptedException {
		long deadline = System.nanoTime() + wait.toNanos();
		for (ThreadPoolExecutor lane : this.lanes.values()) {
			if (!lane.awaitTermination(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS)) {
				return false;
			}
		}
		return true;
	}

	void shutdownNow() {
		this.lanes.values().forEach(ThreadPoolExecutor::shutdownNow);
	}

	// A thread is added only when none is idle, up to the bound; past it runs queue. An
	// idle lane shrinks to none
	// after 30 s.
	private static ThreadPoolExecutor lane(int threads, ThreadFactory factory) {
		GrowingQueue queue = new GrowingQueue();
		ThreadPoolExecutor executor = new ThreadPoolExecutor(0, threads, 30, TimeUnit.SECONDS, queue, factory);
		queue.executor = executor;
		return executor;
	}

	/**
	 * How many threads each lane may have.
	 *
	 * @param quick runs on open, healthy sessions
	 * @param connect first connections and reconnections
	 * @param retry runs after a failure
	 */
	record Sizes(int quick, int connect, int retry) {
	}

	// The executor grows past its core only when its queue refuses: this one refuses
	// while no thread is idle and
	// the bound is not reached, so that runs are queued only once every thread is busy.
	private static final class GrowingQueue extends LinkedBlockingQueue<Runnable> {

		private transient volatile ThreadPoolExecutor executor;

		@Override
		public boolean offer(Runnable run) {
			ThreadPoolExecutor current = this.executor;
			if (current != null && current.getPoolSize() < current.getMaximumPoolSize()
					&& current.getActiveCount() >= current.getPoolSize()) {
				return false;
			}
			return super.offer(run);
		}

	}

}
