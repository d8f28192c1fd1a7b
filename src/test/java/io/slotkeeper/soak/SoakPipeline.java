package io.slotkeeper.soak;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

import io.slotkeeper.testbed.KafkaBroker;
import io.slotkeeper.testbed.PostgresServer;

import static org.awaitility.Awaitility.await;

/**
 * One captured database of a soak: {@code public.orders} and the signal table, a Debezium connector on its own slot
 * and worker ({@link ConnectorSide}), slot-keeper's target for it, a keyed view of its topic and, once the instances
 * are up, its writers.
 */
final class SoakPipeline implements AutoCloseable {

	final String target;

	final String database;

	final String slot;

	final ConnectorSide side;

	final KeyedTopic view;

	private volatile Writers writers;

	/**
	 * Makes the database's tables, starts the connector and waits for its slot.
	 * @param server the server
	 * @param target slot-keeper's name of the target
	 * @param slot the connector's slot (slot names are the server's, not the database's)
	 * @param side how the connector is made and reached, given the database
	 */
	SoakPipeline(PostgresServer server, String target, String slot, Function<String, ConnectorSide> side) {
		this.target = target;
		this.slot = slot;
		this.database = server.createDatabase();
		List<String> schema = new ArrayList<>(Writers.SCHEMA);
		schema.add("CREATE TABLE debezium_signal (id varchar(42) PRIMARY KEY, type varchar(32) NOT NULL,"
				+ " data varchar(2048))");
		server.execute(this.database, schema.toArray(String[]::new));
		this.side = side.apply(this.database);
		await().atMost(java.time.Duration.ofSeconds(60)).until(() -> "1".equals(server.queryForString(this.database,
				"SELECT count(*) FROM pg_replication_slots WHERE slot_name = '" + slot + "'")));
		this.view = new KeyedTopic(KafkaBroker.shared().bootstrap(), this.side.connector().prefix());
	}

	/**
	 * slot-keeper's environment variables for this target, as an operator writes them in a Deployment.
	 * @param index the target's index
	 * @param url the JDBC URL slot-keeper reaches the database by
	 * @param user the user
	 * @return the variables
	 */
	Map<String, String> environment(int index, String url, String user) {
		String prefix = "SLOTKEEPER_TARGETS_" + index + "_";
		String slotPrefix = prefix + "SLOTS_0_";
		Map<String, String> variables = new HashMap<>(Map.ofEntries(Map.entry(prefix + "NAME", this.target),
				Map.entry(prefix + "URL", url), Map.entry(prefix + "USERNAME", user),
				Map.entry(prefix + "HEARTBEAT_INTERVAL", "1s"), Map.entry(prefix + "SLOTS_POLL_INTERVAL", "1s"),
				Map.entry(prefix + "CONNECTION_CONNECT_TIMEOUT", "3s"),
				Map.entry(prefix + "CONNECTION_STATEMENT_TIMEOUT", "5s"), Map.entry(slotPrefix + "NAME", this.slot),
				Map.entry(slotPrefix + "ON_LOST", "recreate"),
				Map.entry(slotPrefix + "MAX_RECREATIONS_PER_HOUR", Integer.toString(SoakVerdict.HEALS_PER_HOUR)),
				Map.entry(slotPrefix + "CONNECTOR_OFFSETS", "align"),
				Map.entry(slotPrefix + "CONNECTOR_RUNNING_TIMEOUT", "30s"),
				Map.entry(slotPrefix + "RESNAPSHOT_MODE", "debezium-signal")));
		variables.putAll(this.side.environment(slotPrefix));
		return variables;
	}

	void startWriting(PostgresServer server, long seed, int perSecond) {
		this.writers = new Writers(server, this.database, seed, perSecond);
	}

	Writers writers() {
		return this.writers;
	}

	@Override
	public void close() {
		if (this.writers != null) {
			this.writers.close();
		}
		this.view.close();
		this.side.close();
	}

}
