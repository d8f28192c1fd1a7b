package io.slotkeeper.watching;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Collectors;

import io.slotkeeper.replication.ReplicationSlot;

/**
 * The WAL each slot of a target's primary retained over the last hour, from the polls
 * slot-keeper makes anyway: one point per {@value #STEP_SECONDS} s, the most retained in
 * that step (what the disk had to hold), at most {@value #POINTS} points per slot.
 * Bounded: about 1.5 KB per slot whatever the poll interval; a slot the primary no longer
 * has is forgotten at the next poll.
 */
public final class RetainedHistory {

	/**
	 * Seconds per point.
	 */
	public static final int STEP_SECONDS = 30;

	/**
	 * Points kept per slot: an hour.
	 */
	public static final int POINTS = 120;

	private final Map<String, Map<String, Ring>> byTarget = new ConcurrentHashMap<>();

	void update(String target, List<ReplicationSlot> slots, Instant at) {
		Map<String, Ring> rings = this.byTarget.computeIfAbsent(target, (name) -> new ConcurrentHashMap<>());
		Set<String> present = slots.stream().map(ReplicationSlot::slotName).collect(Collectors.toSet());
		rings.keySet().retainAll(present);
		int step = step(at);
		for (ReplicationSlot slot : slots) {
			if (slot.retainedWalBytes() != null) {
				rings.computeIfAbsent(slot.slotName(), (name) -> new Ring()).record(step, slot.retainedWalBytes());
			}
		}
	}

	/**
	 * A slot's retained WAL over the last hour.
	 * @param target the target's name
	 * @param slot the slot's name
	 * @param now the end of the hour
	 * @return the series, empty when no poll saw the slot retain WAL in the hour
	 */
	public Optional<Series> of(String target, String slot, Instant now) {
		Ring ring = this.byTarget.getOrDefault(target, Map.of()).get(slot);
		return Optional.ofNullable(ring).flatMap((found) -> found.series(step(now)));
	}

	private static int step(Instant at) {
		return (int) (at.getEpochSecond() / STEP_SECONDS);
	}

	/**
	 * Retained WAL at even steps.
	 *
	 * @param from the start of the first step
	 * @param stepSeconds seconds per step
	 * @param retainedWalBytes the most WAL the slot retained in each step, {@code null}
	 * where no poll read it
	 */
	public record Series(Instant from, int stepSeconds, List<Long> retainedWalBytes) {

		/**
		 * The end of the last step.
		 * @return when the series ends
		 */
		public Instant to() {
			return this.from.plus(Duration.ofSeconds((long) this.stepSeconds * this.retainedWalBytes.size()));
		}

	}

	private static final class Ring {

		private final int[] steps = new int[POINTS];

		private final long[] values = new long[POINTS];

		Ring() {
			Arrays.fill(this.steps, -1);
		}

		synchronized void record(int step, long value) {
			int index = step % POINTS;
			if (this.steps[index] != step) {
				this.steps[index] = step;
				this.values[index] = value;
			}
			else {
				this.values[index] = Math.max(this.values[index], value);
			}
		}

		synchronized Optional<Series> series(int last) {
			List<Long> points = new ArrayList<>(POINTS);
			int first = -1;
			for (int step = last - POINTS + 1; step <= last; step++) {
				int index = Math.floorMod(step, POINTS);
				boolean seen = this.steps[index] == step;
				if (first < 0 && !seen) {
					continue;
				}
				if (first < 0) {
					first = step;
				}
				points.add(seen ? this.values[index] : null);
			}
			return (first < 0) ? Optional.empty()
					: Optional.of(new Series(Instant.ofEpochSecond((long) first * STEP_SECONDS), STEP_SECONDS, points));
		}

	}

	void forget(String target) {
		this.byTarget.remove(target);
	}

}
