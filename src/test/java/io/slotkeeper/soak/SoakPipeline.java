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
 * One captured database of a soak: {@code public.orders} and the signal table, a Debezium
 * connector on its own slot and worker ({@link ConnectorSide}), the target slot-keeper
 * finds for it on the soak's server, a keyed view of its topic and, once the instances
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
	 * @param serverName slot-keeper's name of the server, of which the database's target
	 * takes its name
	 * @param slot the connector's slot (slot names are the server's, not the database's)
	 * @param side how the connector is made and reached, given the database
	 */
	SoakPipeline(PostgresServer server, String serverName, String slot, Function<String, ConnectorSide> side) {
		this.slot = slot;
		this.database = server.createDatabase();
		// The test bed's database names are in PostgreSQL's plain form (db_<pid>_<n>):
		// its target is <server>-db-<pid>-<n>.
		this.target = serverName + "-" + this.database.replace('_', '-');
		List<String> schema = new ArrayList<>(Writers.SCHEMA);
		schema.add("CREATE TABLE debezium_signal (id varchar(42) PRIMARY KEY, type varchar(32) NOT NULL,"
				+ " data varchar(2048))");
		server.execute(this.database, schema.toArray(String[]::new));
		this.side = side.apply(this.database);
		await().atMost(java.time.Duration.ofSeconds(60))
			.until(() -> "1".equals(server.queryForString(this.database,
					"SELECT count(*) FROM pg_replication_slots WHERE slot_name = '" + slot + "'")));
		this.view = new KeyedTopic(KafkaBroker.shared().bootstrap(), this.side.connector().prefix());
	}

	/**
	 * slot-keeper's environment variables for this database's override of the soak's
	 * server, as an operator writes them in a Deployment: its slot's policy.
	 * @param override the prefix of the override, such as
	 * {@code SLOTKEEPER_SERVERS_0_OVERRIDES_1_}
	 * @return the variables
	 */
	Map<String, String> environment(String override) {
		String slotPrefix = override + "SLOTS_0_";
		Map<String, String> variables = new HashMap<>(Map.ofEntries(Map.entry(override + "NAME", this.database),
				Map.entry(slotPrefix + "NAME", this.slot), Map.entry(slotPrefix + "ON_LOST", "recreate"),
				// After a switchover that found the slot unsynchronized; and the former
				// primary's own copy, which blocks
				// the synchronization once it rejoins as the standby.
				Map.entry(slotPrefix + "ON_MISSING", "recreate"), Map.entry(slotPrefix + "ON_ORPHAN", "drop"),
				Map.entry(slotPrefix + "MAX_RECREATIONS_PER_HOUR", Integer.toString(SoakVerdict.HEALS_PER_HOUR)),
				Map.entry(slotPrefix + "ON_FAILED", "restart"),
				Map.entry(slotPrefix + "MAX_RESTARTS_PER_HOUR", Integer.toString(SoakVerdict.RESTARTS_PER_HOUR)),
				Map.entry(slotPrefix + "CONNECTOR_OFFSETS", "align"),
				// Both slots opt in: the raise is the server's, weighed over both, put
				// back when both can live with it.
				Map.entry(slotPrefix + "ON_OUTAGE_RAISE_KEEP_SIZE_TO", SoakVerdict.RAISED_KEEP_SIZE),
				Map.entry(slotPrefix + "ON_OUTAGE_WHEN_BUDGET_BELOW", "1h"),
				Map.entry(slotPrefix + "CONNECTOR_RUNNING_TIMEOUT", "30s"),
				Map.entry(slotPrefix + "RESNAPSHOT_MODE", "debezium-signal"),
				// The workers carry slot-keeper's Debezium extension: a gap's deletes are
				// delivered, so a deleted row still held downstream is stale like any
				// other.
				Map.entry(slotPrefix + "RESNAPSHOT_DELETES", "signal")));
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
