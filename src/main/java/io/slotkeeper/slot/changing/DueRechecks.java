package io.slotkeeper.slot.changing;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;

/**
 * Work to do again for a target's slot once it is due, at most one per slot: a later one replaces an earlier. Taking
 * the due ones removes them, so two heals of one target never take the same.
 * @param <R> what is done again
 */
final class DueRechecks<R> {

	private final Map<String, R> waiting = new ConcurrentHashMap<>();

	private final Function<R, Instant> due;

	DueRechecks(Function<R, Instant> due) {
		this.due = due;
	}

	void put(String target, String slot, R recheck) {
		this.waiting.put(key(target, slot), recheck);
	}

	boolean waiting(String target) {
		String prefix = key(target, "");
		return this.waiting.keySet().stream().anyMatch((key) -> key.startsWith(prefix));
	}

	List<R> take(String target) {
		List<R> taken = new ArrayList<>();
		String prefix = key(target, "");
		Instant now = Instant.now();
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
