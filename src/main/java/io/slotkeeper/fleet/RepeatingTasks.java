package io.slotkeeper.fleet;

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

/**
 * Runs one task per target, each on its own schedule, from start to stop of the application. One timer thread only
 * keeps time; each run happens on a worker of its own, and a task schedules its next run only when its current one has
 * ended, so a dead, slow or hung target holds at most one worker and never delays another.
 */
public abstract class RepeatingTasks implements SmartLifecycle {

	private static final Logger logger = LoggerFactory.getLogger(RepeatingTasks.class);

	private final String name;

	private final Duration shutdownWait;

	private volatile boolean running;

	private ScheduledExecutorService timer;

	private ThreadPoolExecutor workers;

	/**
	 * Creates the runner; nothing runs before {@link #start()}.
	 * @param name the threads' name, for example {@code heartbeat}
	 * @param shutdownWait how long stopping waits for runs in flight
	 */
	protected RepeatingTasks(String name, Duration shutdownWait) {
		this.name = name;
		this.shutdownWait = shutdownWait;
	}

	/**
	 * The tasks to run.
	 * @return one per target
	 */
	protected abstract List<? extends Task> tasks();

	/**
	 * Starts every task after its first delay.
	 */
	@Override
	public synchronized void start() {
		if (this.running) {
			return;
		}
		List<? extends Task> tasks = tasks();
		this.timer = Executors.newSingleThreadScheduledExecutor(threads(this.name + "-timer"));
		this.workers = new ThreadPoolExecutor(0, Integer.MAX_VALUE, 30, TimeUnit.SECONDS, new SynchronousQueue<>(),
				threads(this.name + "-"));
		this.running = true;
		tasks.forEach((task) -> schedule(task, task.firstDelay()));
	}

	private void schedule(Task task, Duration delay) {
		if (!this.running) {
			return;
		}
		try {
			this.timer.schedule(() -> dispatch(task), delay.toNanos(), TimeUnit.NANOSECONDS);
		}
		catch (RejectedExecutionException ex) {
			// Stopping: the schedule ends here on purpose.
		}
	}

	private void dispatch(Task task) {
		try {
			this.workers.execute(() -> run(task));
		}
		catch (RejectedExecutionException ex) {
			// Stopping: the schedule ends here on purpose.
		}
	}

	// Any throwable, even an Error, must leave the schedule going.
	private void run(Task task) {
		Duration next;
		try {
			next = task.run();
		}
		catch (Throwable ex) {
			next = task.escaped(ex);
		}
		schedule(task, next);
	}

	/**
	 * Runs a task once more now, outside its schedule, which goes on as it was; nothing happens while stopped.
	 * @param task the task
	 */
	public void runSoon(Task task) {
		if (!this.running) {
			return;
		}
		try {
			this.workers.execute(() -> {
				try {
					task.run();
				}
				catch (Throwable ex) {
					task.escaped(ex);
				}
			});
		}
		catch (RejectedExecutionException ex) {
			// Stopping: nothing more runs.
		}
	}

	/**
	 * Stops scheduling, lets runs in flight finish (each bounded by its own timeouts) and returns.
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
				logger.warn("{} runs still going after {} ms; interrupting them", this.name, this.shutdownWait.toMillis());
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

	/**
	 * One target's repeating work.
	 */
	public interface Task {

		/**
		 * When the first run should start.
		 * @return the delay
		 */
		Duration firstDelay();

		/**
		 * Runs once; what escapes goes to {@link #escaped(Throwable)}.
		 * @return when to run next
		 */
		Duration run();

		/**
		 * Records what escaped a run, so that even an error keeps the schedule going.
		 * @param failure what escaped
		 * @return when to run next
		 */
		Duration escaped(Throwable failure);

	}

}
