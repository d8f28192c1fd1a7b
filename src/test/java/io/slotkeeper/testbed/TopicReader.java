package io.slotkeeper.testbed;

import java.time.Duration;
import java.util.Map;
import java.util.function.BiConsumer;
import java.util.regex.Pattern;

import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.errors.WakeupException;
import org.apache.kafka.common.serialization.StringDeserializer;

/**
 * Reads the topics matching a pattern from their beginning on a thread of its own,
 * handing each record's topic and value to a callback: what a downstream consumer of
 * Debezium's topics does.
 */
public final class TopicReader implements AutoCloseable {

	private final KafkaConsumer<String, String> consumer;

	private final Thread reader;

	private volatile boolean open = true;

	/**
	 * Starts reading.
	 * @param bootstrap the broker
	 * @param group the consumer group
	 * @param topics the topics, as a pattern (new ones are found within half a second)
	 * @param each what to do with each record's topic and value
	 */
	public TopicReader(String bootstrap, String group, Pattern topics, BiConsumer<String, String> each) {
		this.consumer = new KafkaConsumer<>(Map.of(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap,
				ConsumerConfig.GROUP_ID_CONFIG, group, ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest",
				ConsumerConfig.METADATA_MAX_AGE_CONFIG, "500"), new StringDeserializer(), new StringDeserializer());
		this.consumer.subscribe(topics);
		this.reader = new Thread(() -> read(each), group);
		this.reader.setDaemon(true);
		this.reader.start();
	}

	private void read(BiConsumer<String, String> each) {
		try {
			while (this.open) {
				for (ConsumerRecord<String, String> record : this.consumer.poll(Duration.ofMillis(200))) {
					each.accept(record.topic(), record.value());
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
