package io.slotkeeper.lanes;

import io.slotkeeper.support.DaemonThreads;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Watches the rounds of every lane that talks to a server (heartbeats, polls, discovery,
 * heals, handovers, the connector checks, the WAL-limit guard): each round is begun with
 * the bound its work fits, and one that has not ended within it is reported — a gauge per
 * lane, the {@code lanes} health, a line in the log with where its thread waits — and
 * recovered as its lane says ({@link Recovery}): interrupted, and where the lane can, no
 * longer waited for, so that the next round does not queue behind it; a heal or handover,
 * which stopped midway could leave a connector stopped, is only reported. Every statement
 * has its socket and statement timeouts, so a round past its bound is a defect to be
 * seen, not a wait to be expected.
 */
public final class LaneWatch implements AutoCloseable {

	/**
	 * How often rounds in flight are looked at.
	 */
	static final Duration CHECK_EVERY = Duration.ofSeconds(1);

	private static final Logger logger = LoggerFactory.getLogger(LaneWatch.class);

	private final Set<Round> rounds = ConcurrentHashMap.newKeySet();

	private final Set<String> lanes = ConcurrentHashMap.newKeySet();

	private final Map<String, Instant> ended = new ConcurrentHashMap<>();

	private final Map<String, Duration> longest = new ConcurrentHashMap<>();

	private final MeterRegistry registry;

	private final Clock clock;

	private final ScheduledExecutorService checker;

	/**
	 * Creates the watch and starts looking every {@link #CHECK_EVERY}.
	 * @param registry where the gauges of overdue rounds go, one per lane
	 * @param clock the clock
	 */
	public LaneWatch(MeterRegistry registry, Clock clock) {
		this.registry = registry;
		this.clock = clock;
		this.checker = Executors.newSingleThreadScheduledExecutor(DaemonThreads.named("lane-watch"));
		this.checker.scheduleWithFixedDelay(this::checkSafely, CHECK_EVERY.toMillis(), CHECK_EVERY.toMillis(),
				TimeUnit.MILLISECONDS);
	}

	/**
	 * Declares a lane, so that its gauge is there from the start (0 while no round of it
	 * is overdue).
	 * @param lane the lane's name
	 */
	public void declare(String lane) {
		if (this.lanes.add(lane)) {
			Gauge
				.builder("slotkeeper.lane.overdue",
						() -> this.rounds.stream()
							.filter((round) -> round.lane().equals(lane) && round.overdue(this.clock.instant()))
							.count())
				.description("Rounds of the lane that have not finished within their bound (a hung statement or call):"
						+ " each is logged with where it waits, interrupted and no longer waited for")
				.tag("lane", lane)
				.register(this.registry);
		}
	}

	/**
	 * Begins a round on the calling thread.
	 * @param lane the lane's name
	 * @param target the target it works for, {@code null} for none
	 * @param bound how long its work may take
	 * @param recover how the lane recovers once the round is overdue
	 * @return the round; close it when it ends
	 */
	public Round begin(String lane, String target, Duration bound, Recovery recover) {
		declare(lane);
		Round round = new Round(lane, target, bound, this.clock.instant(), Thread.currentThread(), recover);
		this.rounds.add(round);
		return round;
	}

	/**
	 * The rounds in flight past their bound, the longest first.
	 * @return the rounds
	 */
	public List<Overdue> overdue() {
		Instant now = this.clock.instant();
		return this.rounds.stream()
			.filter((round) -> round.overdue(now))
			.sorted(Comparator.comparing(Round::started))
			.map((round) -> new Overdue(round.lane(), round.target(), round.started(), round.bound(),
					Duration.between(round.started(), now), round.waitsIn()))
			.toList();
	}

	/**
	 * The rounds of one target past their bound.
	 * @param target the target's name
	 * @return the rounds
	 */
	public List<Overdue> overdue(String target) {
		return overdue().stream().filter((round) -> target.equals(round.target())).toList();
	}

	/**
	 * When a round of a lane last ended.
	 * @param lane the lane's name
	 * @return the time, empty before one did
	 */
	public Optional<Instant> lastEnded(String lane) {
		return Optional.ofNullable(this.ended.get(lane));
	}

	/**
	 * The longest round of a lane that ended since start.
	 * @param lane the lane's name
	 * @return how long it took, empty before one ended
	 */
	public Optional<Duration> longestEnded(String lane) {
		return Optional.ofNullable(this.longest.get(lane));
	}

	// A scheduled task that throws is never run again: the watch must outlive whatever
	// one look meets.
	private void checkSafely() {
		try {
			check();
		}
		catch (RuntimeException ex) {
			logger.warn("Looking at the lanes' rounds failed: {}", ex.toString());
		}
	}

	void check() {
		Instant now = this.clock.instant();
		for (Round round : this.rounds) {
			if (round.overdue(now) && round.recovered.compareAndSet(false, true)) {
				Recovery recovery = round.recover();
				logger.warn(
						"A round of lane {}{} has not finished after {} ms (its bound is {} ms): it waits in {}; {}",
						round.lane(), (round.target() != null) ? " for target '" + round.target() + "'" : "",
						Duration.between(round.started(), now).toMillis(), round.bound().toMillis(), round.waitsIn(),
						recovery.said());
				if (recovery.interrupts()) {
					round.thread().interrupt();
				}
				try {
					recovery.then().run();
				}
				catch (RuntimeException ex) {
					logger.warn("Recovering lane {} failed: {}", round.lane(), ex.getMessage());
				}
			}
		}
	}

	/**
	 * How a lane recovers from a round past its bound.
	 *
	 * @param interrupts whether its thread is interrupted
	 * @param then what else recovers the lane
	 * @param said what the log says was done
	 */
	public record Recovery(boolean interrupts, Runnable then, String said) {

		/**
		 * The round's thread is interrupted; the lane's next round is the round's own to
		 * schedule.
		 * @return the recovery
		 */
		public static Recovery interrupting() {
			return new Recovery(true, () -> {
			}, "interrupting it");
		}

		/**
		 * The round's thread is interrupted and the lane no longer waits for it.
		 * @param goOn what lets the lane go on without it
		 * @return the recovery
		 */
		public static Recovery interruptingAndGoingOn(Runnable goOn) {
			return new Recovery(true, goOn, "interrupting it, and the lane goes on without it");
		}

		/**
		 * The round is only reported: stopping it midway would do more harm than its
		 * wait.
		 * @param why why it is not interrupted
		 * @return the recovery
		 */
		public static Recovery reportingOnly(String why) {
			return new Recovery(false, () -> {
			}, "not interrupting it: " + why);
		}

	}

	@Override
	public void close() {
		this.checker.shutdownNow();
	}

	/**
	 * A round past its bound.
	 *
	 * @param lane the lane
	 * @param target the target it works for, {@code null} for none
	 * @param started when it began
	 * @param bound how long it may take
	 * @param running how long it has run
	 * @param waitsIn the top of its thread's stack: where it waits
	 */
	public record Overdue(String lane, String target, Instant started, Duration bound, Duration running,
			String waitsIn) {
	}

	/**
	 * One round of a lane in flight.
	 */
	public final class Round implements AutoCloseable {

		private final String lane;

		private final String target;

		private final Duration bound;

		private final Instant started;

		private final Thread thread;

		private final Recovery recover;

		private final AtomicBoolean recovered = new AtomicBoolean();

		private Round(String lane, String target, Duration bound, Instant started, Thread thread, Recovery recover) {
			this.lane = lane;
			this.target = target;
			this.bound = bound;
			this.started = started;
			this.thread = thread;
			this.recover = recover;
		}

		String lane() {
			return this.lane;
		}

		String target() {
			return this.target;
		}

		Duration bound() {
			return this.bound;
		}

		Instant started() {
			return this.started;
		}

		Thread thread() {
			return this.thread;
		}

		Recovery recover() {
			return this.recover;
		}

		boolean overdue(Instant now) {
			return Duration.between(this.started, now).compareTo(this.bound) > 0;
		}

		/**
		 * Whether the watch gave up on the round: the lane no longer waits for it.
		 * @return whether it did
		 */
		public boolean abandoned() {
			return this.recovered.get();
		}

		// Where the thread is, and the first frame of code not the JDK's: which call of
		// which library waits.
		String waitsIn() {
			StackTraceElement[] stack = this.thread.getStackTrace();
			if (stack.length == 0) {
				return "(no stack: the thread ended)";
			}
			String caller = Arrays.stream(stack)
				.filter((frame) -> !frame.getClassName().matches("(java|javax|jdk|sun)\\..*"))
				.findFirst()
				.filter((frame) -> frame != stack[0])
				.map((frame) -> ", called from " + frame)
				.orElse("");
			return stack[0] + caller;
		}

		/**
		 * Ends the round: it is no longer watched.
		 */
		@Override
		public void close() {
			if (LaneWatch.this.rounds.remove(this)) {
				Instant now = LaneWatch.this.clock.instant();
				Duration took = Duration.between(this.started, now);
				LaneWatch.this.ended.put(this.lane, now);
				LaneWatch.this.longest.merge(this.lane, took, (a, b) -> (a.compareTo(b) >= 0) ? a : b);
			}
		}

	}

}
