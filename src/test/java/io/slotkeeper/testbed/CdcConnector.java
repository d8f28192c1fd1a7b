package io.slotkeeper.testbed;

import java.util.List;
import java.util.Map;

/**
 * A Debezium PostgreSQL connector as a recovery test drives it: its Kafka Connect REST
 * URL for slot-keeper, its state, every row of {@code public.orders} it delivered, and
 * the outages a test plays. Two kinds: {@link RealKafkaConnect} (a real Kafka Connect
 * worker and broker) and {@link EngineConnect} (an embedded Debezium engine behind a REST
 * stand-in, kept for what a real worker cannot be made to do).
 */
public interface CdcConnector extends AutoCloseable {

	/**
	 * The Kafka Connect REST API's base URL.
	 * @return for example {@code http://127.0.0.1:8083}
	 */
	String url();

	/**
	 * What slot-keeper is told about the connector, as command-line settings.
	 * @param property the connector's property, such as
	 * {@code slotkeeper.targets[0].slots[0].connector}
	 * @return the settings: the REST URL and name here
	 */
	default List<String> slotKeeperSettings(String property) {
		return List.of("--" + property + ".url=" + url(), "--" + property + ".name=orders-debezium");
	}

	/**
	 * Its {@code topic.prefix}, which names its offsets' partition ({@code {"server":
	 * prefix}}).
	 * @return the prefix
	 */
	String prefix();

	/**
	 * The state of its task as Kafka Connect reports it, or of the connector when it has
	 * no task.
	 * @return {@code RUNNING}, {@code FAILED}, {@code STOPPED}, {@code UNASSIGNED}…,
	 * {@code UNREACHABLE} when Connect does not answer
	 */
	String state();

	/**
	 * Ends the task as a crash does: its status says FAILED, its slot is inactive.
	 */
	void crash();

	/**
	 * Restarts the connector and its task from the stored offset, as
	 * {@code POST …/restart?includeTasks=true} does.
	 */
	void restart();

	/**
	 * The worker's process killed: the REST API refuses connections and the task is gone.
	 */
	void workerDown();

	/**
	 * The worker started again: it resumes the connectors of its group from their stored
	 * offsets.
	 */
	void workerUp();

	/**
	 * The rows of {@code public.orders} delivered, by id, with how many times each came.
	 * @return a copy
	 */
	Map<Long, Integer> deliveries();

	/**
	 * When a row was first delivered.
	 * @param id its id
	 * @return {@link System#nanoTime()} then, {@code null} when it was not
	 */
	Long arrivedAt(long id);

	/**
	 * Change events delivered from {@code public.orders}, duplicates included.
	 * @return the count
	 */
	long events();

	@Override
	void close();

}
