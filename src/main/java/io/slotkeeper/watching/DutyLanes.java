package io.slotkeeper.watching;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.slf4j.MDC;

import io.slotkeeper.lanes.LaneWatch;
import io.slotkeeper.support.Events;

/**
 * Where the slow duties of a slot poll run: asking Kafka Connect about the slots'
 * connectors (up to a timeout per connector) and healing (a recreate and its connector
 * handover, which may take minutes). They run on threads of their own, a few for each
 * kind, one run per target and kind at a time, so that a hung Kafka Connect delays only
 * what waits for it, never the polls of other targets, which take a statement's time.
 */
public final class DutyLanes implements AutoCloseable {

	static final int HEAL_THREADS = 2;

	static final int CHECK_THREADS = 4;

	private static final Logger logger = LoggerFactory.getLogger(DutyLanes.class);

	// Multiples of the longest statement on a pooled connection that a round of each kind
	// may take: the guard runs a
	// handful of statements, a connector check a call per connector, a heal or handover
	// waits on Kafka Connect.
	private static final Map<String, Integer> BOUNDS = Map.of("keep-size", 10, "connector-checks", 20, "heal", 60,
			"handover", 60, "resnapshot", 60);

	// A heal, handover or re-snapshot round stops a connector, drops and creates slots,
	// and resumes: interrupted or
	// run twice, it could leave the connector stopped. Its rounds are reported past their
	// bound, never given up on.
	private static final Set<String> STOPPED_MIDWAY_HARMS = Set.of("heal", "handover", "resnapshot");

	private final boolean pooled;

	private final LaneWatch lanes;

	private final Duration statementBound;

	private volatile Executor heals;

	private volatile Executor checks;

	private volatile Executor keepSize;

	private final Map<String, Object> running = new ConcurrentHashMap<>();

	private DutyLanes(boolean pooled, LaneWatch lanes, Duration statementBound) {
		this.pooled = pooled;
		this.lanes = lanes;
		this.statementBound = statementBound;
		if (lanes != null) {
			BOUNDS.keySet().forEach(lanes::declare);
		}
		open();
	}

	/**
	 * Duties on threads of their own, each round watched: one that has not ended within
	 * its bound is reported and no longer waited for, its pool made anew, so that the
	 * next poll's duty runs.
	 * @param lanes the watch of every lane
	 * @param statementBound the longest one statement on a pooled connection can take, of
	 * which each kind's bound is a multiple
	 * @return the duties; close them when the poller stops
	 */
	static DutyLanes pooled(LaneWatch lanes, Duration statementBound) {
		return new DutyLanes(true, lanes, statementBound);
	}

	/**
	 * Duties run on the calling thread, for a poll outside the schedule whose caller
	 * waits for all of it.
	 * @return the duties
	 */
	static DutyLanes inline() {
		return new DutyLanes(false, null, null);
	}

	/**
	 * Makes the threads again after {@link #close()}: a poller stopped and started again
	 * (a lifecycle restart, a paused test context) must heal and ask Kafka Connect again,
	 * not have every duty refused without a word.
	 */
	synchronized void open() {
		if (!this.pooled) {
			this.heals = Runnable::run;
			this.checks = Runnable::run;
			this.keepSize = Runnable::run;
			return;
		}
		if (this.heals instanceof ThreadPoolExecutor pool && !pool.isShutdown()) {
			return;
		}
		this.heals = pool("slot-healer-", HEAL_THREADS);
		this.checks = pool("connector-checks-", CHECK_THREADS);
		this.keepSize = pool("keep-size-", 1);
	}

	/**
	 * Runs a heal of a target, one at a time per target.
	 * @param target the target's name
	 * @param work the heal
	 */
	public void heal(String target, Runnable work) {
		submit(this.heals, target, "heal", work);
	}

	// A lane of its own: the raise is for the very outage in which handovers wait on a
	// hung Kafka Connect.
	/**
	 * Runs the WAL-limit guard after a target's poll.
	 * @param target the target's name
	 * @param work the guard
	 */
	public void guardKeepSize(String target, Runnable work) {
		submit(this.keepSize, target, "keep-size", work);
	}

	/**
	 * Runs the pending handovers, stale offsets and restarts of a target's connectors.
	 * @param target the target's name
	 * @param work the handovers
	 */
	public void completeHandovers(String target, Runnable work) {
		submit(this.heals, target, "handover", work);
	}

	/**
	 * Runs the re-snapshot rechecks of a target.
	 * @param target the target's name
	 * @param work the rechecks
	 */
	public void recheckResnapshots(String target, Runnable work) {
		submit(this.heals, target, "resnapshot", work);
	}

	/**
	 * Asks Kafka Connect about a target's connectors.
	 * @param target the target's name
	 * @param work the check
	 */
	public void checkConnectors(String target, Runnable work) {
		submit(this.checks, target, "connector-checks", work);
	}

	// A target whose last duty of this kind still runs (Kafka Connect hung) gets no
	// second one queued behind it.
	private void submit(Executor executor, String target, String kind, Runnable work) {
		String key = kind + "/" + target;
		Object token = new Object();
		if (this.running.putIfAbsent(key, token) != null) {
			return;
		}
		try {
			executor.execute(() -> {
				try (MDC.MDCCloseable about = Events.about(target);
						LaneWatch.Round round = watch(kind, target, key, token)) {
					work.run();
				}
				catch (RuntimeException ex) {
					logger.warn("The duty {} of a slot poll failed: {}", key, ex.getMessage());
				}
				finally {
					this.running.remove(key, token);
				}
			});
		}
		catch (RejectedExecutionException ex) {
			this.running.remove(key, token);
		}
	}

	private LaneWatch.Round watch(String kind, String target, String key, Object token) {
		if (this.lanes == null) {
			return null;
		}
		LaneWatch.Recovery recovery = STOPPED_MIDWAY_HARMS.contains(kind) ? LaneWatch.Recovery.reportingOnly(
				"a heal or handover stopped midway could leave its connector stopped;" + " it is said until it ends")
				: LaneWatch.Recovery.interruptingAndGoingOn(() -> abandon(kind, key, token));
		return this.lanes.begin(kind, target, this.statementBound.multipliedBy(BOUNDS.get(kind)), recovery);
	}

	// The round's thread may never come back: its key is freed, and its pool made anew so
	// that the next round of its
	// kind does not queue behind it; rounds already running in the old pool finish there.
	private synchronized void abandon(String kind, String key, Object token) {
		this.running.remove(key, token);
		if (!this.pooled) {
			return;
		}
		if ("keep-size".equals(kind)) {
			this.keepSize = replace(this.keepSize, "keep-size-", 1);
		}
		else if ("connector-checks".equals(kind)) {
			this.checks = replace(this.checks, "connector-checks-", CHECK_THREADS);
		}
	}

	// Rounds queued behind the hung one move to the new pool: other targets' rounds must
	// not wait for it either.
	private static Executor replace(Executor old, String prefix, int threads) {
		ThreadPoolExecutor fresh = pool(prefix, threads);
		if (old instanceof ThreadPoolExecutor pool) {
			pool.shutdown();
			List<Runnable> queued = new ArrayList<>();
			pool.getQueue().drainTo(queued);
			queued.forEach(fresh::execute);
		}
		return fresh;
	}

	private static ThreadPoolExecutor pool(String prefix, int threads) {
		AtomicInteger count = new AtomicInteger();
		ThreadPoolExecutor executor = new ThreadPoolExecutor(threads, threads, 30, TimeUnit.SECONDS,
				new LinkedBlockingQueue<>(), (runnable) -> {
					Thread thread = new Thread(runnable, prefix + count.incrementAndGet());
					thread.setDaemon(true);
					return thread;
				});
		executor.allowCoreThreadTimeOut(true);
		return executor;
	}

	@Override
	public synchronized void close() {
		for (Executor executor : new Executor[] { this.heals, this.checks, this.keepSize }) {
			if (executor instanceof ThreadPoolExecutor pool) {
				pool.shutdownNow();
			}
		}
	}

}
