package io.slotkeeper.connect;

import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

import io.slotkeeper.config.ConnectorProperties;
import io.slotkeeper.config.ServerUrls;

/**
 * A Debezium PostgreSQL connector as a source listed it: how to reach it, and the part of
 * its configuration that says which slot it consumes and how it is re-snapshotted.
 * Nothing else of its configuration is kept: it may hold the database password.
 *
 * @param source where it was listed, for example
 * {@code kafka-connect http://connect:8083}
 * @param connector how slot-keeper reaches it: its REST API, or its
 * {@code KafkaConnector} resource
 * @param config the kept settings ({@link #KEPT}) as the source gave them
 * @param state its state as the source last reported it, {@code null} when unknown
 */
public record FoundConnector(String source, ConnectorProperties connector, Map<String, String> config, String state) {

	/**
	 * The settings kept of a connector's configuration.
	 */
	public static final Set<String> KEPT = Set.of("connector.class", "database.hostname", "database.port",
			"database.dbname", "slot.name", "plugin.name", "publication.name", "signal.data.collection",
			"table.include.list", "topic.prefix", "offset.mismatch.strategy", "slot.drop.on.stop",
			"message.prefix.include.list", "message.prefix.exclude.list", "heartbeat.interval.ms",
			"signal.enabled.channels", "snapshot.mode", "read.only");

	private static final String POSTGRES = "io.debezium.connector.postgresql.PostgresConnector";

	/**
	 * Keeps the connector's settings that say where it reads from, and no other.
	 */
	public FoundConnector {
		config = Map.copyOf(new TreeMap<>(config));
	}

	/**
	 * The connector's name in Kafka Connect.
	 * @return the name
	 */
	public String name() {
		return this.connector.name();
	}

	/**
	 * The slot it consumes: {@code slot.name}, Debezium's default {@code debezium} when
	 * unset.
	 * @return the slot's name
	 */
	public String slot() {
		return this.config.getOrDefault("slot.name", "debezium");
	}

	/**
	 * Its {@code database.hostname} and {@code database.port} (5432 when unset) as one
	 * {@code host:port}.
	 * @return the endpoint in lower case, {@code null} when it names no host
	 */
	public String endpoint() {
		String host = this.config.get("database.hostname");
		if (host == null || host.isBlank()) {
			return null;
		}
		String bracketed = (host.contains(":") && !host.startsWith("[")) ? "[" + host.strip() + "]" : host.strip();
		return ServerUrls.endpoint(bracketed + ":" + this.config.getOrDefault("database.port", "5432").strip());
	}

	/**
	 * Its {@code database.dbname}.
	 * @return the database, {@code null} when unset
	 */
	public String database() {
		return this.config.get("database.dbname");
	}

	/**
	 * Whether a connector class is Debezium's PostgreSQL connector, by its full name or
	 * Kafka Connect's alias.
	 * @param connectorClass the class as configured
	 * @return whether it is
	 */
	static boolean postgres(Object connectorClass) {
		return POSTGRES.equals(connectorClass) || "PostgresConnector".equals(connectorClass);
	}

	/**
	 * The kept settings of a connector's configuration, each as text.
	 * @param config the whole configuration as listed
	 * @return the kept settings
	 */
	public static Map<String, String> kept(Map<?, ?> config) {
		Map<String, String> kept = new TreeMap<>();
		config.forEach((key, value) -> {
			if (KEPT.contains(String.valueOf(key)) && value != null) {
				kept.put(String.valueOf(key), String.valueOf(value));
			}
		});
		return kept;
	}

}
