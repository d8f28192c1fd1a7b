package io.slotkeeper.soak;

import java.util.Iterator;
import java.util.List;
import java.util.Random;

/**
 * The faults of a soak, drawn from a seed: the same seed gives the same kinds, gaps,
 * durations and victims in the same order, so that a failed run can be played again. Each
 * draw consumes the same number of values whatever its kind. Besides single faults it
 * draws overlaps ({@link Overlap}), from a stream of their own.
 */
final class FaultSchedule implements Iterator<FaultSchedule.Fault> {

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

		/**
		 * The Kubernetes API answers every request with an error for 10–60 s: 500 (a
		 * failing etcd), 429 (throttled) or 401 (a token the API server no longer
		 * accepts), by the drawn length ({@link Fault#apiStatus()}).
		 */
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
	 * Two faults on one pipeline that start within seconds of each other, where features
	 * meet: each plays its first fault, waits for the moment named, then plays the second
	 * while the first still holds.
	 */
	enum Overlap {

		/**
		 * The connector's user stops it; 3 s later its slot is lost (the consumer already
		 * away): slot-keeper heals the slot and must leave the connector stopped for the
		 * whole 40–60 s the stop stands, the gap re-read once the user resumes it.
		 */
		USER_STOP_DURING_LOSS(Kind.USER_STOP),

		/**
		 * The slot lost; the moment it is usable again (the handover under way), the
		 * connector's worker killed and the instance that owns the target (the holder of
		 * its owner lock) killed; both back after 10–30 s.
		 */
		OWNER_KILLED_DURING_HANDOVER(Kind.SLOT_LOST),

		/**
		 * The Strimzi-managed connector's slot lost; the moment it is lost, the
		 * Kubernetes API hangs (odd seconds) or answers 500 (even) for 10–30 s: the
		 * handover goes through the {@code KafkaConnector} resource.
		 */
		API_FAULT_DURING_HANDOVER(Kind.SLOT_LOST),

		/**
		 * The connector's worker down, its gap journaled from a copy of its slot; a
		 * switchover to the standby; the worker back half-way through 10–30 s, then the
		 * switch back.
		 */
		SWITCHOVER_WHILE_AWAY(Kind.SWITCHOVER),

		/**
		 * The slot lost; the moment it is lost, the network of the instance that owns the
		 * target stalls for 10–30 s, the recreate its to do.
		 */
		OWNER_STALLED_DURING_RECREATE(Kind.SLOT_LOST),

		/**
		 * The connector's worker down until slot-keeper raises the WAL limit for it; then
		 * the other pipeline's task fails; the worker back after 10–30 s.
		 */
		TASK_FAILED_DURING_RAISE(Kind.TASK_FAILED);

		private final Kind first;

		/**
		 * The longest bound of a time to whole again, before a status lag: an overlap's.
		 */
		static final long WHOLE_AGAIN_MILLIS = 90_000;

		Overlap(Kind first) {
			this.first = first;
		}

		/**
		 * How long after its end an overlap may leave a pipeline not whole (p99): a
		 * repair of slot-keeper's makes it whole, as after {@link Kind#repaired} faults,
		 * with 30 s more for a second fault that delays it (an owner's takeover, an API
		 * that answers again, a worker's start).
		 * @return the bound, in milliseconds
		 */
		long wholeAgainWithinMillis() {
			return WHOLE_AGAIN_MILLIS;
		}

	}

	/**
	 * One drawn fault.
	 *
	 * @param number its place in the run, from 1
	 * @param kind its kind, for an overlap the kind of its first fault
	 * @param overlap the overlap it is, {@code null} for a single fault
	 * @param gapSeconds how long after the previous fault ended it starts
	 * @param seconds how long it lasts, where its kind has a duration
	 * @param victim which instance, or which pipeline's connector, where its kind has one
	 */
	record Fault(int number, Kind kind, Overlap overlap, int gapSeconds, int seconds, int victim) {

		/**
		 * A single fault.
		 * @param number its place in the run, from 1
		 * @param kind its kind
		 * @param gapSeconds how long after the previous fault ended it starts
		 * @param seconds how long it lasts
		 * @param victim which instance or pipeline
		 * @return the fault
		 */
		static Fault single(int number, Kind kind, int gapSeconds, int seconds, int victim) {
			return new Fault(number, kind, null, gapSeconds, seconds, victim);
		}

		/**
		 * An overlap.
		 * @param number its place in the run, from 1
		 * @param overlap which
		 * @param gapSeconds how long after the previous fault ended it starts
		 * @param seconds how long its second fault lasts
		 * @param victim which pipeline
		 * @return the fault
		 */
		static Fault overlapping(int number, Overlap overlap, int gapSeconds, int seconds, int victim) {
			return new Fault(number, overlap.first, overlap, gapSeconds, seconds, victim);
		}

		/**
		 * The status a {@link Kind#KUBERNETES_API_ERRORS} fault answers with, chosen by
		 * its length so that no draw is added: 500, 429 or 401.
		 * @return the status
		 */
		int apiStatus() {
			return new int[] { 500, 429, 401 }[this.seconds % 3];
		}

		/**
		 * What the figures group it under: its overlap, or its kind.
		 * @return the name
		 */
		String label() {
			return (this.overlap != null) ? this.overlap.name() : this.kind.name();
		}

		/**
		 * How long after its end it may leave a pipeline not whole (p99): where a repair
		 * of slot-keeper's makes it whole, later by as much as the pipeline's connector
		 * state can lag (a {@code KafkaConnector}'s status is as fresh as the operator's
		 * last reconcile).
		 * @param statusLagMillis how late the pipeline's connector state can be read
		 * @return the bound, in milliseconds
		 */
		long wholeAgainWithinMillis(long statusLagMillis) {
			if (this.overlap != null) {
				return this.overlap.wholeAgainWithinMillis() + statusLagMillis;
			}
			return this.kind.wholeAgainWithinMillis() + (this.kind.repaired ? statusLagMillis : 0);
		}

		@Override
		public String toString() {
			if (this.overlap != null) {
				return "#" + this.number + " " + this.overlap + " on pipeline " + this.victim + ", " + this.seconds
						+ " s";
			}
			return "#" + this.number + " " + this.kind + switch (this.kind) {
				case KILL_INSTANCE -> " of instance " + this.victim + ", back after " + this.seconds + " s";
				case FREEZE_INSTANCE -> " of instance " + this.victim + " for " + this.seconds + " s";
				case SLOT_LOST, TASK_FAILED -> " of pipeline " + this.victim;
				case WORKER_RESTART, USER_STOP -> " of pipeline " + this.victim + " for " + this.seconds + " s";
				case KUBERNETES_API_ERRORS -> " (" + apiStatus() + ") for " + this.seconds + " s";
				default -> " for " + this.seconds + " s";
			};
		}

	}

	// The pipeline whose connector a Strimzi KafkaConnector manages: SoakWorld's second.
	// An API fault during a handover can only be played on it.
	private static final int MANAGED_PIPELINE = 1;

	private final Random random;

	// Overlaps come from a stream of their own: the single faults of a seed stay those it
	// drew before overlaps were played (a seed kept green replays what it found), the
	// overlaps put between them.
	private final Random overlaps;

	private final int overlapPercent;

	private final List<Kind> kinds;

	private final int minGap;

	private final int maxGap;

	private int drawn;

	/**
	 * A schedule of single faults and, in the given share of its draws, overlaps.
	 * @param seed the seed
	 * @param kinds the kinds of single faults drawn from
	 * @param overlapPercent the share of draws that are an overlap, 0 for none
	 * @param minGap the shortest gap before a fault, in seconds
	 * @param maxGap the longest
	 */
	FaultSchedule(long seed, List<Kind> kinds, int overlapPercent, int minGap, int maxGap) {
		this.random = new Random(seed);
		this.overlaps = new Random(~seed);
		this.overlapPercent = overlapPercent;
		this.kinds = List.copyOf(kinds);
		this.minGap = minGap;
		this.maxGap = maxGap;
	}

	@Override
	public boolean hasNext() {
		return true;
	}

	@Override
	public Fault next() {
		if (this.overlaps.nextInt(100) < this.overlapPercent) {
			Overlap overlap = Overlap.values()[this.overlaps.nextInt(Overlap.values().length)];
			int gap = this.minGap + this.overlaps.nextInt(this.maxGap - this.minGap + 1);
			int drawnVictim = this.overlaps.nextInt(2);
			// Drawn all the same: the stream, and every later draw, stays as it was.
			int victim = (overlap == Overlap.API_FAULT_DURING_HANDOVER) ? MANAGED_PIPELINE : drawnVictim;
			int seconds = (overlap == Overlap.USER_STOP_DURING_LOSS) ? 40 + this.overlaps.nextInt(21)
					: 10 + this.overlaps.nextInt(21);
			return Fault.overlapping(++this.drawn, overlap, gap, seconds, victim);
		}
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
		return Fault.single(++this.drawn, kind, gap, seconds, victim);
	}

	private int between(int low, int high) {
		return low + this.random.nextInt(high - low + 1);
	}

}
