package io.slotkeeper.support;

import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;

/**
 * Work to do again for a target's slot once it is due, at most one per slot: a later one
 * replaces an earlier. Taking the due ones removes them, so two heals of one target never
 * take the same.
 *
 * @param <R> what is done again
 */
public final class DueRechecks<R> {

	private final Map<String, R> waiting = new ConcurrentHashMap<>();

	private final Function<R, Instant> due;

	private final Clock clock;

	/**
	 * @param due when a recheck is due
	 * @param clock what tells when one is
	 */
	public DueRechecks(Function<R, Instant> due, Clock clock) {
		this.due = due;
		this.clock = clock;
	}

	/**
	 * Keeps a recheck of a slot, replacing the one it had.
	 * @param target the target's name
	 * @param slot the slot's name
	 * @param recheck what is done again
	 */
	public void put(String target, String slot, R recheck) {
		this.waiting.put(key(target, slot), recheck);
	}

	/**
	 * Whether a recheck of the target waits, due or not.
	 * @param target the target's name
	 * @return whether one waits
	 */
	public boolean waiting(String target) {
		String prefix = key(target, "");
		return this.waiting.keySet().stream().anyMatch((key) -> key.startsWith(prefix));
	}

	/**
	 * Takes the target's rechecks that are due.
	 * @param target the target's name
	 * @return them, removed
	 */
	public List<R> take(String target) {
		List<R> taken = new ArrayList<>();
		String prefix = key(target, "");
		Instant now = this.clock.instant();
		this.waiting.forEach((key, recheck) -> {
			if (key.startsWith(prefix) && !now.isBefore(this.due.apply(recheck)) && this.waiting.remove(key, recheck)) {
				taken.add(recheck);
			}
		});
		return taken;
	}

	private static String key(String target, String slot) {
		return target + "/" + slot;
	}

}
