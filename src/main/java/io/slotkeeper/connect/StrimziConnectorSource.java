package io.slotkeeper.connect;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import io.slotkeeper.config.ConnectorDiscoveryProperties;
import io.slotkeeper.config.ConnectorProperties;
import io.slotkeeper.config.StrimziConnectorProperties;

/**
 * The {@code KafkaConnector} resources of one namespace, listed through the Kubernetes
 * API; each found one is changed through its resource ({@link StrimziConnectorApi}),
 * never through Kafka Connect's REST API.
 */
final class StrimziConnectorSource implements ConnectorSource {

	private static final Duration CALL_TIMEOUT = Duration.ofSeconds(10);

	private final KafkaConnectorResources resources;

	private final String namespace;

	private final ConnectorDiscoveryProperties discovery;

	StrimziConnectorSource(KafkaConnectorResources resources, String namespace,
			ConnectorDiscoveryProperties discovery) {
		this.resources = resources;
		this.namespace = namespace;
		this.discovery = discovery;
	}

	@Override
	public String describe() {
		return "strimzi namespace " + this.namespace;
	}

	@Override
	public Listing list() {
		KafkaConnectorResources.Reply reply = this.resources.connectors(this.namespace);
		if (!reply.ok()) {
			return new Listing(List.of(), reply.error());
		}
		List<FoundConnector> found = new ArrayList<>();
		Object items = reply.object().get("items");
		for (Object item : (items instanceof List<?> list) ? list : List.of()) {
			KafkaConnectorResource resource = KafkaConnectorResource.of(JsonObjects.asMap(item));
			if (resource.name() != null && FoundConnector.postgres(resource.spec().connectorClass())) {
				String state = ConnectorStatus.stateOf(resource.status().connectorStatus());
				found.add(new FoundConnector(describe(), reach(resource.name()),
						FoundConnector.kept(resource.spec().connectorConfig()), state));
			}
		}
		return new Listing(found, null);
	}

	private ConnectorProperties reach(String name) {
		return new ConnectorProperties(null, name, null, null, CALL_TIMEOUT, this.discovery.offsets(),
				this.discovery.runningTimeout(), new StrimziConnectorProperties(this.namespace, name));
	}

}
