package io.slotkeeper.testbed;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.regex.Pattern;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * A consumer of the table topic {@code <prefix>.public.orders} from its beginning,
 * recording every row's id as Debezium's JSON envelope ({@code after.id}, schemas off)
 * carries it, and when it first arrived: what a downstream system received. It also
 * counts the snapshot reads ({@code op: r}) of every table topic of the prefix, and when
 * the last one came: what a re-snapshot cost.
 */
final class OrdersTopic implements AutoCloseable {

	private static final JsonMapper JSON = JsonMapper.builder().build();

	private final Map<Long, Integer> deliveries = new ConcurrentHashMap<>();

	private final Map<Long, Long> arrivals = new ConcurrentHashMap<>();

	private final AtomicLong events = new AtomicLong();

	private final java.util.Set<Long> deleted = ConcurrentHashMap.newKeySet();

	private final AtomicLong reads = new AtomicLong();

	private final AtomicLong truncates = new AtomicLong();

	private final Map<Long, Boolean> alive = new ConcurrentHashMap<>();

	private volatile long lastReadAt;

	private final String ordersTopic;

	private final TopicReader reader;

	OrdersTopic(String bootstrap, String prefix) {
		this.ordersTopic = prefix + ".public.orders";
		this.reader = new TopicReader(bootstrap, "orders-reader-" + prefix,
				Pattern.compile(Pattern.quote(prefix + ".public.") + "[a-z_]+"), this::record);
	}

	private void record(String topic, String value) {
		if (value == null) {
			return;
		}
		JsonNode event = JSON.readTree(value);
		if ("r".equals(event.path("op").asString())) {
			this.reads.incrementAndGet();
			this.lastReadAt = System.nanoTime();
		}
		if ("t".equals(event.path("op").asString()) && topic.equals(this.ordersTopic)) {
			this.truncates.incrementAndGet();
		}
		if ("d".equals(event.path("op").asString()) && topic.equals(this.ordersTopic)) {
			this.deleted.add(event.path("before").path("id").asLong());
			this.alive.put(event.path("before").path("id").asLong(), false);
		}
		JsonNode after = event.path("after");
		if (topic.equals(this.ordersTopic) && after.isObject()) {
			this.events.incrementAndGet();
			long id = after.path("id").asLong();
			this.alive.put(id, true);
			this.deliveries.merge(id, 1, Integer::sum);
			this.arrivals.putIfAbsent(id, System.nanoTime());
		}
	}

	Map<Long, Integer> deliveries() {
		return Map.copyOf(this.deliveries);
	}

	java.util.Set<Long> deleted() {
		return java.util.Set.copyOf(this.deleted);
	}

	Long arrivedAt(long id) {
		return this.arrivals.get(id);
	}

	long events() {
		return this.events.get();
	}

	Boolean alive(long id) {
		return this.alive.get(id);
	}

	long truncates() {
		return this.truncates.get();
	}

	long reads() {
		return this.reads.get();
	}

	long lastReadAt() {
		return this.lastReadAt;
	}

	@Override
	public void close() {
		this.reader.close();
	}

}
