package io.slotkeeper.testbed;

import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.regex.Pattern;

import tools.jackson.databind.json.JsonMapper;

/**
 * An outbox table as insights-rbac's pipeline has one — each event a row inserted into
 * {@code public.outbox} and deleted right after — routed by Debezium's
 * {@code EventRouter} to a topic named after the events' aggregate type, and a consumer
 * of that topic from its beginning recording each event's number ({@code payload.n}):
 * what the services downstream received.
 */
public final class OutboxTopic implements AutoCloseable {

	/**
	 * The outbox table, as Debezium's outbox pattern describes it, with a time of its
	 * own.
	 */
	public static final String TABLE = "CREATE TABLE outbox (id uuid PRIMARY KEY DEFAULT gen_random_uuid(),"
			+ " aggregatetype varchar(255) NOT NULL, aggregateid varchar(255) NOT NULL, type varchar(255) NOT NULL,"
			+ " payload jsonb, created_at timestamptz NOT NULL DEFAULT now())";

	private static final JsonMapper JSON = JsonMapper.builder().build();

	private static final AtomicLong instances = new AtomicLong();

	private final String aggregate = "gap_events_" + ProcessHandle.current().pid() + "_" + instances.incrementAndGet();

	private final Set<Integer> received = ConcurrentHashMap.newKeySet();

	private final AtomicLong records = new AtomicLong();

	private final TopicReader reader;

	/**
	 * Starts reading the topic the events are routed to.
	 * @param broker the broker
	 */
	public OutboxTopic(KafkaBroker broker) {
		this.reader = new TopicReader(broker.bootstrap(), "outbox-reader-" + this.aggregate,
				Pattern.compile(Pattern.quote(this.aggregate)), (topic, value) -> {
					this.records.incrementAndGet();
					if (value != null) {
						this.received.add(JSON.readTree(JSON.readTree(value).asString()).path("n").asInt());
					}
				});
	}

	/**
	 * The connector's settings that capture the outbox table beside the orders and route
	 * its events: an {@code EventRouter} applied to the outbox table's topic only, its
	 * events to a topic named after their aggregate type.
	 * @return the settings
	 */
	public Map<String, String> connectorSettings() {
		return Map.of("table.include.list", "public.orders,public.debezium_signal,public.outbox", "transforms",
				"outbox", "transforms.outbox.type", "io.debezium.transforms.outbox.EventRouter",
				"transforms.outbox.route.topic.replacement", "${routedByValue}", "transforms.outbox.predicate",
				"isOutbox", "predicates", "isOutbox", "predicates.isOutbox.type",
				"org.apache.kafka.connect.transforms.predicates.TopicNameMatches", "predicates.isOutbox.pattern",
				".*\\.public\\.outbox");
	}

	/**
	 * Writes events as an application does: each inserted, then all deleted.
	 * @param server the server
	 * @param database the database
	 * @param from the first event's number
	 * @param to the last one's
	 */
	public void write(PostgresServer server, String database, int from, int to) {
		server.execute(database,
				"INSERT INTO outbox (aggregatetype, aggregateid, type, payload) SELECT '" + this.aggregate
						+ "', n::text, 'created', jsonb_build_object('n', n) FROM generate_series(" + from + ", " + to
						+ ") AS n",
				"DELETE FROM outbox");
	}

	/**
	 * The numbers of the events received.
	 * @return them
	 */
	public Set<Integer> received() {
		return Set.copyOf(this.received);
	}

	/**
	 * How many records the topic delivered, duplicates included.
	 * @return the count
	 */
	public long records() {
		return this.records.get();
	}

	@Override
	public void close() {
		this.reader.close();
	}

}
