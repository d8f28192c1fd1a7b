package io.slotkeeper.testbed;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.regex.Pattern;

import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.errors.WakeupException;
import org.apache.kafka.common.serialization.StringDeserializer;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * A consumer of the table topic {@code <prefix>.public.orders} from its beginning, recording every row's id as
 * Debezium's JSON envelope ({@code after.id}, schemas off) carries it, and when it first arrived: what a downstream
 * system received. It also counts the snapshot reads ({@code op: r}) of every table topic of the prefix, and when the
 * last one came: what a re-snapshot cost.
 */
final class OrdersTopic implements AutoCloseable {

	private static final JsonMapper JSON = JsonMapper.builder().build();

	private final Map<Long, Integer> deliveries = new ConcurrentHashMap<>();

	private final Map<Long, Long> arrivals = new ConcurrentHashMap<>();

	private final AtomicLong events = new AtomicLong();

	private final java.util.Set<Long> deleted = ConcurrentHashMap.newKeySet();

	private final AtomicLong reads = new AtomicLong();

	private volatile long lastReadAt;

	private final String ordersTopic;

	private final KafkaConsumer<String, String> consumer;

	private final Thread reader;

	private volatile boolean open = true;

	OrdersTopic(String bootstrap, String prefix) {
		this.consumer = new KafkaConsumer<>(Map.of(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap,
				ConsumerConfig.GROUP_ID_CONFIG, "orders-reader-" + prefix,
				ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest",
				ConsumerConfig.METADATA_MAX_AGE_CONFIG, "500"), new StringDeserializer(), new StringDeserializer());
		this.ordersTopic = prefix + ".public.orders";
		this.consumer.subscribe(Pattern.compile(Pattern.quote(prefix + ".public.") + "[a-z_]+"));
		this.reader = new Thread(this::read, "orders-topic-" + prefix);
		this.reader.setDaemon(true);
		this.reader.start();
	}

	private void read() {
		try {
			while (this.open) {
				for (ConsumerRecord<String, String> record : this.consumer.poll(Duration.ofMillis(200))) {
					record(record.topic(), record.value());
				}
			}
		}
		catch (WakeupException ex) {
			// closed
		}
		finally {
			this.consumer.close(Duration.ofSeconds(2));
		}
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
		if ("d".equals(event.path("op").asString()) && topic.equals(this.ordersTopic)) {
			this.deleted.add(event.path("before").path("id").asLong());
		}
		JsonNode after = event.path("after");
		if (topic.equals(this.ordersTopic) && after.isObject()) {
			this.events.incrementAndGet();
			long id = after.path("id").asLong();
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

	long reads() {
		return this.reads.get();
	}

	long lastReadAt() {
		return this.lastReadAt;
	}

	@Override
	public void close() {
		this.open = false;
		this.consumer.wakeup();
		try {
			this.reader.join(5000);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
	}

}
