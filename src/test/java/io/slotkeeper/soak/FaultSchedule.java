package io.slotkeeper.soak;

import java.util.List;
import java.util.Random;

/**
 * The faults of a soak, drawn from a seed: the same seed gives the same kinds, gaps,
 * durations and victims in the same order, so that a failed run can be played again. Each
 * draw consumes the same number of values whatever its kind.
 */
final class FaultSchedule {

	/**
	 * A kind of fault and how it is played.
	 */
	enum Kind {

		/** A slot-keeper instance killed with SIGKILL, started again after 2–20 s. */
		KILL_INSTANCE(true),

		/** A slot-keeper instance frozen with SIGSTOP for 30 s. */
		FREEZE_INSTANCE(false),

		/** A Kafka Connect worker killed, started again after 5–60 s. */
		WORKER_RESTART(false),

		/**
		 * The connector's task failed (its walsender ended); slot-keeper's
		 * {@code on-failed: restart} starts it.
		 */
		TASK_FAILED(true),

		/** The primary stopped and started again after 2–10 s. */
		PRIMARY_RESTART(true),

		/**
		 * The slot lost on purpose: its consumer failed, WAL pushed past
		 * max_slot_wal_keep_size.
		 */
		SLOT_LOST(true),

		/**
		 * The network between slot-keeper and PostgreSQL stalls for 10–90 s: nothing is
		 * lost, nothing moves.
		 */
		NETWORK_STALL(false),

		/**
		 * The connector's user stops it for 10–30 s, then resumes it: {@code PUT …/stop},
		 * or {@code spec.state}.
		 */
		USER_STOP(false),

		/** The Kubernetes API answers 500 to everything for 10–60 s. */
		KUBERNETES_API_ERRORS(false),

		/** The Kubernetes API holds every request unanswered for 10–60 s. */
		KUBERNETES_API_HANG(false),

		/**
		 * A planned switchover to the standby once it holds both slots synchronized, the
		 * former primary its standby; 20–60 s later the same way back.
		 */
		SWITCHOVER(true);

		private final boolean repaired;

		Kind(boolean repaired) {
			this.repaired = repaired;
		}

		/**
		 * How long after its end a fault may leave a pipeline not whole (p99): 60 s where
		 * only a repair of slot-keeper's makes it whole (a slot recreated, a failed task
		 * restarted, as after a primary's restart or a switchover, where each task fails
		 * with its walsender, or a dead instance's targets taken over); 15 s for the
		 * others, which end on their own.
		 * @return the bound, in milliseconds
		 */
		long wholeAgainWithinMillis() {
			return this.repaired ? 60_000 : 15_000;
		}

	}

	/**
	 * One drawn fault.
	 *
	 * @param number its place in the run, from 1
	 * @param kind its kind
	 * @param gapSeconds how long after the previous fault ended it starts
	 * @param seconds how long it lasts, where its kind has a duration
	 * @param victim which instance, or which pipeline's connector, where its kind has one
	 */
	record Fault(int number, Kind kind, int gapSeconds, int seconds, int victim) {

		@Override
		public String toString() {
			return "#" + this.number + " " + this.kind + switch (this.kind) {
				case KILL_INSTANCE -> " of instance " + this.victim + ", back after " + this.seconds + " s";
				case FREEZE_INSTANCE -> " of instance " + this.victim + " for " + this.seconds + " s";
				case SLOT_LOST, TASK_FAILED -> " of pipeline " + this.victim;
				case WORKER_RESTART, USER_STOP -> " of pipeline " + this.victim + " for " + this.seconds + " s";
				default -> " for " + this.seconds + " s";
			};
		}

	}

	private final Random random;

	private final List<Kind> kinds;

	private final int minGap;

	private final int maxGap;

	private int drawn;

	FaultSchedule(long seed, List<Kind> kinds, int minGap, int maxGap) {
		this.random = new Random(seed);
		this.kinds = List.copyOf(kinds);
		this.minGap = minGap;
		this.maxGap = maxGap;
	}

	Fault next() {
		Kind kind = this.kinds.get(this.random.nextInt(this.kinds.size()));
		int gap = between(this.minGap, this.maxGap);
		int victim = this.random.nextInt(2);
		int drawnSeconds = this.random.nextInt(1000);
		int seconds = switch (kind) {
			case KILL_INSTANCE -> 2 + drawnSeconds % 19;
			case FREEZE_INSTANCE -> 30;
			case WORKER_RESTART -> 5 + drawnSeconds % 56;
			case TASK_FAILED -> 0;
			case PRIMARY_RESTART -> 2 + drawnSeconds % 9;
			case SLOT_LOST -> 0;
			case NETWORK_STALL -> 10 + drawnSeconds % 81;
			case USER_STOP -> 10 + drawnSeconds % 21;
			case KUBERNETES_API_ERRORS, KUBERNETES_API_HANG -> 10 + drawnSeconds % 51;
			case SWITCHOVER -> 20 + drawnSeconds % 41;
		};
		return new Fault(++this.drawn, kind, gap, seconds, victim);
	}

	private int between(int low, int high) {
		return low + this.random.nextInt(high - low + 1);
	}

}
