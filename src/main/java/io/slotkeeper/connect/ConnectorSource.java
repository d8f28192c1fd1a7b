package io.slotkeeper.connect;

import java.util.ArrayList;
import java.util.List;

import org.springframework.web.client.RestClient;

import io.slotkeeper.config.ConnectorDiscoveryProperties;
import io.slotkeeper.config.StrimziProperties;

/**
 * Where Debezium PostgreSQL connectors are listed: a Kafka Connect cluster's REST API
 * ({@link RestConnectorSource}) or the {@code KafkaConnector} resources of a namespace
 * ({@link StrimziConnectorSource}). Discovery is written once against this.
 */
public interface ConnectorSource {

	/**
	 * What the source is, for logs and the API.
	 * @return for example {@code kafka-connect http://connect:8083} or
	 * {@code strimzi namespace kafka}
	 */
	String describe();

	/**
	 * Lists the source's Debezium PostgreSQL connectors now; never throws.
	 * @return the connectors, or why they could not be listed
	 */
	Listing list();

	/**
	 * The sources a configuration names, Kafka Connect clusters first.
	 * @param discovery the sources
	 * @param strimzi how the Kubernetes API is reached
	 * @return the sources
	 */
	static List<ConnectorSource> of(ConnectorDiscoveryProperties discovery, StrimziProperties strimzi) {
		List<ConnectorSource> sources = new ArrayList<>();
		discovery.kafkaConnect()
			.forEach((cluster) -> sources.add(new RestConnectorSource(RestClient.builder(), cluster, discovery)));
		if (!discovery.strimziNamespaces().isEmpty()) {
			KafkaConnectorResources resources = new KafkaConnectorResources(strimzi);
			discovery.strimziNamespaces()
				.forEach((namespace) -> sources.add(new StrimziConnectorSource(resources, namespace, discovery)));
		}
		return sources;
	}

	/**
	 * What one listing found.
	 *
	 * @param connectors the Debezium PostgreSQL connectors, when listed
	 * @param error why they could not be listed, {@code null} when they were
	 */
	record Listing(List<FoundConnector> connectors, String error) {

		/**
		 * Whether the source answered.
		 * @return whether the connectors were listed
		 */
		public boolean ok() {
			return this.error == null;
		}

	}

}
