package io.slotkeeper.soak;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.regex.Pattern;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import io.slotkeeper.testbed.TopicReader;

/**
 * What a compacted topic or an upserting sink would hold of {@code public.orders}: per
 * key the last event seen (its {@code version}, or deleted), when the key first arrived,
 * and how many events repeated a version already seen (the duplicates a re-snapshot or a
 * replay brings).
 */
final class KeyedTopic implements AutoCloseable {

	static final int DELETED = -1;

	private static final JsonMapper JSON = JsonMapper.builder().build();

	private final Map<Long, Integer> last = new ConcurrentHashMap<>();

	private final Map<Long, Long> firstArrival = new ConcurrentHashMap<>();

	private final Map<Long, String> lastEvent = new ConcurrentHashMap<>();

	private final Map<Long, Long> deleteSeen = new ConcurrentHashMap<>();

	private final AtomicLong events = new AtomicLong();

	private final AtomicLong duplicates = new AtomicLong();

	private final TopicReader reader;

	KeyedTopic(String bootstrap, String prefix) {
		this.reader = new TopicReader(bootstrap, "soak-view-" + prefix,
				Pattern.compile(Pattern.quote(prefix + ".public.orders")), (topic, value) -> record(value));
	}

	private void record(String value) {
		if (value == null) {
			return;
		}
		JsonNode event = JSON.readTree(value);
		this.events.incrementAndGet();
		JsonNode after = event.path("after");
		long now = System.currentTimeMillis();
		String op = event.path("op").asString();
		String snapshot = event.path("source").path("snapshot").asString();
		String described = "op " + op
				+ ((snapshot.isEmpty() || "false".equals(snapshot)) ? "" : " (snapshot " + snapshot + ")") + " arrived "
				+ java.time.Instant.ofEpochMilli(now);
		if (after.isObject()) {
			long id = after.path("id").asLong();
			int version = after.path("version").asInt();
			this.lastEvent.put(id, described + ", version " + version);
			this.firstArrival.putIfAbsent(id, now);
			Integer previous = this.last.put(id, version);
			if (previous != null && previous == version) {
				this.duplicates.incrementAndGet();
			}
		}
		else if ("d".equals(op)) {
			long id = event.path("before").path("id").asLong();
			this.last.put(id, DELETED);
			this.lastEvent.put(id, described);
			this.deleteSeen.put(id, now);
		}
	}

	/**
	 * The last state per key: its version, or {@link #DELETED}.
	 */
	Map<Long, Integer> last() {
		return Map.copyOf(this.last);
	}

	/**
	 * When each key first arrived, in epoch milliseconds.
	 */
	Map<Long, Long> firstArrivals() {
		return Map.copyOf(this.firstArrival);
	}

	/**
	 * The last event of a key in words (its op, whether a snapshot read it, when it
	 * arrived) and when a delete of it last arrived, for the keys whose state is wrong.
	 */
	String describe(long id) {
		Long delete = this.deleteSeen.get(id);
		return this.lastEvent.getOrDefault(id, "no event") + "; a delete "
				+ ((delete != null) ? "arrived " + java.time.Instant.ofEpochMilli(delete) : "never arrived");
	}

	long events() {
		return this.events.get();
	}

	long duplicates() {
		return this.duplicates.get();
	}

	@Override
	public void close() {
		this.reader.close();
	}

}
