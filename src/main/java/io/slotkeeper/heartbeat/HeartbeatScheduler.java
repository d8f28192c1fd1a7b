package io.slotkeeper.heartbeat;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.context.SmartLifecycle;

import io.slotkeeper.config.HeartbeatProperties;

/**
 * Runs every enabled target's heartbeat on its own schedule. One timer thread only keeps time; each attempt runs on
 * a worker of its own, and a target schedules its next attempt only when its current one has ended, so a dead, slow
 * or hung target holds at most one worker and never delays another target.
 */
public class HeartbeatScheduler implements SmartLifecycle {

	private static final Logger logger = LoggerFactory.getLogger(HeartbeatScheduler.class);

	private final List<TargetHeartbeat> targets;

	private final Duration shutdownWait;

	private volatile boolean running;

	private ScheduledExecutorService timer;

	private ThreadPoolExecutor workers;

	/**
	 * Creates the scheduler.
	 * @param targets every target; disabled ones are not scheduled
	 * @param shutdownWait how long stopping waits for heartbeats in flight
	 */
	public HeartbeatScheduler(List<TargetHeartbeat> targets, Duration shutdownWait) {
		this.targets = List.copyOf(targets);
		this.shutdownWait = shutdownWait;
	}

	@Override
	public synchronized void start() {
		if (this.running) {
			return;
		}
		this.timer = Executors.newSingleThreadScheduledExecutor(threads("heartbeat-timer"));
		this.workers = new ThreadPoolExecutor(0, Integer.MAX_VALUE, 30, TimeUnit.SECONDS, new SynchronousQueue<>(),
				threads("heartbeat-"));
		this.running = true;
		List<TargetHeartbeat> enabled = this.targets.stream().filter((t) -> t.target().properties().heartbeat().enabled()).toList();
		if (this.targets.isEmpty()) {
			logger.warn("No targets are configured (slotkeeper.targets is empty): slot-keeper idles");
		}
		else {
			logger.info("Heartbeating {} of {} targets: {}", enabled.size(), this.targets.size(),
					enabled.stream().map(HeartbeatScheduler::describe).toList());
		}
		enabled.forEach((target) -> schedule(target, target.firstDelay()));
	}

	private static String describe(TargetHeartbeat target) {
		HeartbeatProperties settings = target.target().properties().heartbeat();
		return target.target().name() + " (" + settings.mode().name().toLowerCase() + " every "
				+ settings.interval().toMillis() + " ms)";
	}

	private void schedule(TargetHeartbeat target, Duration delay) {
		if (!this.running) {
			return;
		}
		try {
			this.timer.schedule(() -> dispatch(target), delay.toNanos(), TimeUnit.NANOSECONDS);
		}
		catch (RejectedExecutionException ex) {
			// Stopping: the schedule ends here on purpose.
		}
	}

	private void dispatch(TargetHeartbeat target) {
		try {
			this.workers.execute(() -> run(target));
		}
		catch (RejectedExecutionException ex) {
			// Stopping: the schedule ends here on purpose.
		}
	}

	private void run(TargetHeartbeat target) {
		Duration next = target.target().properties().heartbeat().interval();
		try {
			next = target.beat().nextAttemptIn();
		}
		catch (Throwable ex) {
			next = target.recordEscaped(ex);
		}
		finally {
			schedule(target, next);
		}
	}

	/**
	 * Stops scheduling, lets heartbeats in flight finish (each is bounded by its timeouts) and returns.
	 */
	@Override
	public synchronized void stop() {
		if (!this.running) {
			return;
		}
		this.running = false;
		this.timer.shutdownNow();
		this.workers.shutdown();
		try {
			if (!this.workers.awaitTermination(this.shutdownWait.toMillis(), TimeUnit.MILLISECONDS)) {
				logger.warn("Heartbeats still running after {} ms; interrupting them", this.shutdownWait.toMillis());
				this.workers.shutdownNow();
			}
		}
		catch (InterruptedException ex) {
			this.workers.shutdownNow();
			Thread.currentThread().interrupt();
		}
	}

	@Override
	public boolean isRunning() {
		return this.running;
	}

	/**
	 * Worker threads alive now, busy or idle.
	 * @return the number of worker threads
	 */
	int workerThreads() {
		ThreadPoolExecutor current = this.workers;
		return (current != null) ? current.getPoolSize() : 0;
	}

	private static ThreadFactory threads(String prefix) {
		AtomicInteger count = new AtomicInteger();
		return (runnable) -> {
			Thread thread = new Thread(runnable, prefix.endsWith("-") ? prefix + count.incrementAndGet() : prefix);
			thread.setDaemon(true);
			return thread;
		};
	}

}
