package io.slotkeeper.connect;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import io.slotkeeper.config.ConnectorDiscoveryProperties;
import io.slotkeeper.config.ConnectorProperties;
import io.slotkeeper.config.StrimziConnectorProperties;

/**
 * The {@code KafkaConnector} resources of one namespace, listed through the Kubernetes API; each found one is changed
 * through its resource ({@link StrimziConnectorApi}), never through Kafka Connect's REST API.
 */
final class StrimziConnectorSource implements ConnectorSource {

	private static final Duration CALL_TIMEOUT = Duration.ofSeconds(10);

	private final KafkaConnectorResources resources;

	private final String namespace;

	private final ConnectorDiscoveryProperties discovery;

	StrimziConnectorSource(KafkaConnectorResources resources, String namespace, ConnectorDiscoveryProperties discovery) {
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
			Map<String, Object> resource = ConnectorLifecycle.asMap(item);
			Map<String, Object> spec = ConnectorLifecycle.asMap(resource.get("spec"));
			Object name = ConnectorLifecycle.asMap(resource.get("metadata")).get("name");
			if (name != null && FoundConnector.postgres(spec.get("class"))) {
				Map<String, String> config = FoundConnector.kept(ConnectorLifecycle.asMap(spec.get("config")));
				String state = ConnectorStatus.of(name.toString(), ConnectorLifecycle.asMap(
						ConnectorLifecycle.asMap(resource.get("status")).get("connectorStatus"))).state();
				found.add(new FoundConnector(describe(), reach(name.toString()), withClass(config, spec), state));
			}
		}
		return new Listing(found, null);
	}

	private static Map<String, String> withClass(Map<String, String> config, Map<String, Object> spec) {
		Map<String, String> all = new java.util.TreeMap<>(config);
		all.put("connector.class", String.valueOf(spec.get("class")));
		return all;
	}

	private ConnectorProperties reach(String name) {
		return new ConnectorProperties(null, name, null, null, CALL_TIMEOUT, this.discovery.offsets(),
				this.discovery.runningTimeout(), new StrimziConnectorProperties(this.namespace, name));
	}

}
