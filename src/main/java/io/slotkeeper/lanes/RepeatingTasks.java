package io.slotkeeper.lanes;

import io.slotkeeper.support.DaemonThreads;

import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.slf4j.MDC;
import org.springframework.context.SmartLifecycle;
import io.slotkeeper.support.Events;

/**
 * Runs one task per target, each on its own schedule, from start to stop of the
 * application. One timer thread only keeps time; runs happen on a bounded number of
 * workers in three {@link WorkerLanes lanes}, and a task schedules its next run only when
 * its current one has ended, so a dead, slow or hung target holds at most one worker, in
 * the retry lane, and does not delay the targets that answer.
 */
public abstract class RepeatingTasks implements SmartLifecycle {

	private static final Logger logger = LoggerFactory.getLogger(RepeatingTasks.class);

	private final String name;

	private final Duration shutdownWait;

	private final WorkerLanes.Sizes sizes;

	private final LaneWatch lanes;

	private final Set<RepeatingTask> scheduled = ConcurrentHashMap.newKeySet();

	private final Set<RepeatingTask> retired = ConcurrentHashMap.newKeySet();

	private volatile boolean running;

	private ScheduledExecutorService timer;

	private WorkerLanes workers;

	/**
	 * Creates the runner; nothing runs before {@link #start()}.
	 * @param name the threads' name, for example {@code heartbeat}
	 * @param shutdownWait how long stopping waits for runs in flight: the longest one run
	 * takes
	 * @param lanes the watch of every lane: a run that has not ended within
	 * {@link #roundBound()} is reported and interrupted
	 * @param quick at most this many threads for runs on open, healthy sessions
	 * @param connect at most this many for first connections and reconnections
	 * @param retry at most this many for runs after a failure
	 */
	protected RepeatingTasks(String name, Duration shutdownWait, LaneWatch lanes, int quick, int connect, int retry) {
		this.name = name;
		this.shutdownWait = shutdownWait;
		this.lanes = lanes;
		this.sizes = new WorkerLanes.Sizes(quick, connect, retry);
		lanes.declare(name);
	}

	/**
	 * How many times its longest statement a run may take before it is reported: a run is
	 * a few statements, each bound by its timeouts.
	 */
	public static final int ROUND_BOUND = 6;

	/**
	 * How long one run may take before it is reported and interrupted.
	 * @return {@link #ROUND_BOUND} times the longest statement, unless the tasks know
	 * their work better
	 */
	protected Duration roundBound() {
		return this.shutdownWait.multipliedBy(ROUND_BOUND);
	}

	/**
	 * The tasks to run from start.
	 * @return one per target
	 */
	protected abstract List<? extends RepeatingTask> tasks();

	/**
	 * Starts a task that joined after start, after its first delay; before start,
	 * {@link #tasks()} must list it.
	 * @param task the task
	 */
	protected synchronized void joined(RepeatingTask task) {
		if (this.running && this.scheduled.add(task)) {
			schedule(task, task.firstDelay());
		}
	}

	/**
	 * Ends a task's schedule: a run in flight finishes, no other starts.
	 * @param task the task
	 */
	protected void left(RepeatingTask task) {
		if (this.scheduled.remove(task)) {
			this.retired.add(task);
		}
	}

	/**
	 * Starts every task after its first delay.
	 */
	@Override
	public synchronized void start() {
		if (this.running) {
			return;
		}
		List<? extends RepeatingTask> tasks = tasks();
		this.timer = Executors.newSingleThreadScheduledExecutor(DaemonThreads.named(this.name + "-timer"));
		this.workers = new WorkerLanes(this.name, this.sizes);
		this.running = true;
		this.scheduled.addAll(tasks);
		tasks.forEach((task) -> schedule(task, task.firstDelay()));
	}

	private void schedule(RepeatingTask task, Duration delay) {
		if (!this.running || this.retired.remove(task)) {
			return;
		}
		try {
			this.timer.schedule(() -> dispatch(task), delay.toNanos(), TimeUnit.NANOSECONDS);
		}
		catch (RejectedExecutionException ex) {
			// Stopping: the schedule ends here on purpose.
		}
	}

	private void dispatch(RepeatingTask task) {
		if (this.retired.remove(task)) {
			return;
		}
		try {
			this.workers.execute(task.lane(), () -> run(task));
		}
		catch (RejectedExecutionException ex) {
			// Stopping: the schedule ends here on purpose.
		}
	}

	private void run(RepeatingTask task) {
		schedule(task, runOnce(task));
	}

	// Any throwable, even an Error, must leave the schedule going; every line the run
	// logs names its target. A run
	// past its bound is interrupted by the watch; another is not started beside it, as a
	// task's runs share its state.
	private Duration runOnce(RepeatingTask task) {
		String target = task.about();
		try (MDC.MDCCloseable about = (target != null) ? Events.about(target) : null;
				LaneWatch.Round round = this.lanes.begin(this.name, target, roundBound(),
						LaneWatch.Recovery.interrupting())) {
			return task.run();
		}
		catch (Throwable ex) {
			return task.escaped(ex);
		}
	}

	/**
	 * Runs a task once more now, outside its schedule, which goes on as it was; nothing
	 * happens while stopped.
	 * @param task the task
	 */
	public void runSoon(RepeatingTask task) {
		if (!this.running || this.retired.contains(task)) {
			return;
		}
		try {
			this.workers.execute(task.lane(), () -> runOnce(task));
		}
		catch (RejectedExecutionException ex) {
			// Stopping: nothing more runs.
		}
	}

	/**
	 * Stops scheduling, lets runs in flight finish (each bounded by its own timeouts) and
	 * returns.
	 */
	@Override
	public synchronized void stop() {
		if (!this.running) {
			return;
		}
		this.running = false;
		this.scheduled.clear();
		this.retired.clear();
		this.timer.shutdownNow();
		this.workers.shutdown();
		try {
			if (!this.workers.awaitTermination(this.shutdownWait)) {
				logger.warn("{} runs still going after {} ms; interrupting them", this.name,
						this.shutdownWait.toMillis());
				this.workers.shutdownNow();
			}
		}
		catch (InterruptedException ex) {
			this.workers.shutdownNow();
			Thread.currentThread().interrupt();
		}
	}

	/**
	 * @return whether tasks are being scheduled: started and not stopped
	 */
	@Override
	public boolean isRunning() {
		return this.running;
	}

	/**
	 * @return the worker threads alive now, busy or idle
	 */
	public int workerThreads() {
		WorkerLanes current = this.workers;
		return (current != null) ? current.threads() : 0;
	}

}
