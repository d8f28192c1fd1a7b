package io.slotkeeper.fleet;

import java.time.Duration;
import java.util.concurrent.PriorityBlockingQueue;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A bounded number of threads for many targets' runs, in two lanes so that the ones that may block for a timeout
 * never delay the ones that do not. A run on an open, healthy session takes a millisecond and goes to the quick lane;
 * one that must connect, or whose last run failed, may hold its thread for a connect or statement timeout and goes
 * to the slow lane, where runs that have not failed yet (a first connection, a reconnection) go before retries of
 * failing ones. Both lanes queue beyond their threads, so a fleet with many dead or hung targets costs a fixed number
 * of threads, not one each.
 */
final class WorkerLanes {

	private final ThreadPoolExecutor quick;

	private final ThreadPoolExecutor slow;

	private final AtomicLong order = new AtomicLong();

	WorkerLanes(String name, int quickThreads, int slowThreads) {
		this.quick = lane(quickThreads, threads(name + "-"));
		this.slow = lane(slowThreads, threads(name + "-slow-"));
	}

	/**
	 * Queues a run.
	 * @param lane which lane it belongs to
	 * @param run the run
	 * @throws java.util.concurrent.RejectedExecutionException when stopping
	 */
	void execute(Lane lane, Runnable run) {
		Queued queued = new Queued(lane, this.order.incrementAndGet(), run);
		((lane == Lane.QUICK) ? this.quick : this.slow).execute(queued);
	}

	int threads() {
		return this.quick.getPoolSize() + this.slow.getPoolSize();
	}

	void shutdown() {
		this.quick.shutdown();
		this.slow.shutdown();
	}

	boolean awaitTermination(Duration wait) throws InterruptedException {
		long deadline = System.nanoTime() + wait.toNanos();
		return this.quick.awaitTermination(wait.toNanos(), TimeUnit.NANOSECONDS)
				&& this.slow.awaitTermination(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
	}

	void shutdownNow() {
		this.quick.shutdownNow();
		this.slow.shutdownNow();
	}

	// A thread is added only when none is idle, up to the bound; past it runs queue. An idle lane shrinks to none
	// after 30 s.
	private static ThreadPoolExecutor lane(int threads, ThreadFactory factory) {
		GrowingQueue queue = new GrowingQueue();
		ThreadPoolExecutor executor = new ThreadPoolExecutor(0, threads, 30, TimeUnit.SECONDS, queue, factory);
		queue.executor = executor;
		return executor;
	}

	static ThreadFactory threads(String prefix) {
		AtomicInteger count = new AtomicInteger();
		return (runnable) -> {
			Thread thread = new Thread(runnable, prefix.endsWith("-") ? prefix + count.incrementAndGet() : prefix);
			thread.setDaemon(true);
			return thread;
		};
	}

	// The executor grows past its core only when its queue refuses: this one refuses while no thread is idle and
	// the bound is not reached, so that runs are queued only once every thread is busy.
	private static final class GrowingQueue extends PriorityBlockingQueue<Runnable> {

		private volatile ThreadPoolExecutor executor;

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

	private record Queued(Lane lane, long order, Runnable work) implements Runnable, Comparable<Queued> {

		@Override
		public void run() {
			this.work.run();
		}

		@Override
		public int compareTo(Queued other) {
			int byLane = this.lane.compareTo(other.lane);
			return (byLane != 0) ? byLane : Long.compare(this.order, other.order);
		}

	}

}
