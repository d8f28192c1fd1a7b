package io.slotkeeper.connect;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.springframework.web.client.RestClient;
import org.springframework.web.client.RestClientException;
import org.springframework.web.client.RestClientResponseException;

import io.slotkeeper.config.ConnectorDiscoveryProperties.KafkaConnectProperties;
import io.slotkeeper.config.ConnectorDiscoveryProperties;
import io.slotkeeper.config.ConnectorProperties;

/**
 * The connectors of one Kafka Connect cluster, listed with their configuration and status
 * in one call ({@code GET /connectors?expand=info&expand=status}); each found one is
 * reached through the same REST API, with the cluster's credentials.
 */
final class RestConnectorSource implements ConnectorSource {

	private final KafkaConnectProperties cluster;

	private final ConnectorDiscoveryProperties discovery;

	private final RestClient client;

	RestConnectorSource(RestClient.Builder builder, KafkaConnectProperties cluster,
			ConnectorDiscoveryProperties discovery) {
		this.cluster = cluster;
		this.discovery = discovery;
		this.client = ConnectClients.client(builder, cluster.url(), cluster.username(), cluster.password(),
				cluster.timeout());
	}

	@Override
	public String describe() {
		return "kafka-connect " + this.cluster.url();
	}

	@Override
	public Listing list() {
		Object body;
		try {
			body = this.client.get().uri("/connectors?expand=info&expand=status").retrieve().body(Object.class);
		}
		catch (RestClientResponseException ex) {
			return new Listing(List.of(),
					"Kafka Connect answered " + ex.getStatusCode().value() + ": " + RestConnectorApi.body(ex));
		}
		catch (RestClientException ex) {
			return new Listing(List.of(), "Kafka Connect could not be reached: " + ConnectorClient.failure(ex));
		}
		List<FoundConnector> found = new ArrayList<>();
		JsonObjects.asMap(body).forEach((name, expanded) -> {
			Map<String, Object> config = JsonObjects
				.asMap(JsonObjects.asMap(JsonObjects.asMap(expanded).get("info")).get("config"));
			if (FoundConnector.postgres(config.get("connector.class"))) {
				String state = ConnectorStatus.stateOf(JsonObjects.asMap(JsonObjects.asMap(expanded).get("status")));
				found.add(new FoundConnector(describe(), reach(name), FoundConnector.kept(config), state));
			}
		});
		return new Listing(found, null);
	}

	private ConnectorProperties reach(String name) {
		return new ConnectorProperties(this.cluster.url(), name, this.cluster.username(), this.cluster.password(),
				this.cluster.timeout(), this.discovery.offsets(), this.discovery.runningTimeout(), null);
	}

}
