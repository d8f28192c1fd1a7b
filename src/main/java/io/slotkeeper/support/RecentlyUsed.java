package io.slotkeeper.support;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Predicate;

/**
 * A bounded map that forgets its least recently used entry first, safe to share between
 * threads: the memory of answers that a caller may ask for again (listings, token
 * reviews), however many different questions are asked.
 *
 * @param <K> the question
 * @param <V> its answer
 */
public final class RecentlyUsed<K, V> {

	private final Map<K, V> entries;

	/**
	 * A memory of at most {@code capacity} entries.
	 * @param capacity how many it keeps, at least 1
	 */
	public RecentlyUsed(int capacity) {
		if (capacity < 1) {
			throw new IllegalArgumentException("capacity must be at least 1, not " + capacity);
		}
		this.entries = new LinkedHashMap<>(Math.min(capacity, 64), 0.75f, true) {

			@Override
			protected boolean removeEldestEntry(Map.Entry<K, V> eldest) {
				return size() > capacity;
			}

		};
	}

	/**
	 * The answer kept for a question, which becomes the most recently used.
	 * @param key the question
	 * @return its answer, {@code null} when none is kept
	 */
	public synchronized V get(K key) {
		return this.entries.get(key);
	}

	/**
	 * The answer kept for a question while it is still good; one that is no longer good
	 * is forgotten.
	 * @param key the question
	 * @param good whether an answer may still be given
	 * @return its answer, {@code null} when none is kept or it was no longer good
	 */
	public synchronized V getIf(K key, Predicate<V> good) {
		V value = this.entries.get(key);
		if (value != null && !good.test(value)) {
			this.entries.remove(key);
			return null;
		}
		return value;
	}

	/**
	 * Keeps an answer, forgetting the least recently used one when full.
	 * @param key the question
	 * @param value its answer
	 */
	public synchronized void put(K key, V value) {
		this.entries.put(key, value);
	}

	/**
	 * How many answers are kept.
	 * @return the number
	 */
	public synchronized int size() {
		return this.entries.size();
	}

}
