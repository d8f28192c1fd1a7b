package io.slotkeeper.healing;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * How many times healing recreated each slot within the last hour, so that a slot lost
 * again and again stops being recreated.
 */
final class RecreationBudget {

	static final Duration WINDOW = Duration.ofHours(1);

	private final Map<String, Deque<Instant>> recreations = new ConcurrentHashMap<>();

	/**
	 * The recreations of a slot within the window before {@code now}.
	 * @param key the target and slot
	 * @param now the time
	 * @return how many
	 */
	int used(String key, Instant now) {
		Deque<Instant> recent = this.recreations.computeIfAbsent(key, (name) -> new ArrayDeque<>());
		synchronized (recent) {
			while (!recent.isEmpty() && recent.peekFirst().isBefore(now.minus(WINDOW))) {
				recent.removeFirst();
			}
			return recent.size();
		}
	}

	/**
	 * Counts a recreation.
	 * @param key the target and slot
	 * @param at when
	 */
	void spend(String key, Instant at) {
		Deque<Instant> recent = this.recreations.computeIfAbsent(key, (name) -> new ArrayDeque<>());
		synchronized (recent) {
			recent.addLast(at);
		}
	}

}
