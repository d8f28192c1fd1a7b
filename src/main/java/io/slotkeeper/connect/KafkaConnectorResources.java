package io.slotkeeper.connect;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

import io.slotkeeper.config.ConnectorProperties;
import io.slotkeeper.config.StrimziProperties;
import io.slotkeeper.kubernetes.KubernetesApi;

/**
 * Strimzi {@code KafkaConnector} resources and slot-keeper's offsets ConfigMaps through
 * the Kubernetes API: read, JSON merge-patch, create; and the {@code KafkaConnect}
 * resources, read only. The {@code kafka.strimzi.io} version is the configured one, or
 * the one the API server serves ({@code v1} preferred over {@code v1beta2}), asked once.
 */
final class KafkaConnectorResources {

	private static final String GROUP = "/apis/kafka.strimzi.io";

	private final KubernetesApi api;

	private volatile String version;

	KafkaConnectorResources(StrimziProperties settings) {
		this.api = new KubernetesApi(settings.apiServer(), settings.serviceAccountTokenFile(), settings.caFile(),
				settings.timeout());
		this.version = settings.apiVersion().isEmpty() ? null : settings.apiVersion();
	}

	Reply connector(String namespace, String name) {
		return onConnector(namespace, name, (path) -> send("GET", path, null, null));
	}

	Reply connector(ConnectorProperties connector) {
		return connector(connector.strimzi().namespace(), connector.strimzi().name());
	}

	/**
	 * A {@code KafkaConnect} resource, whose {@code status.url} is its workers' REST
	 * address.
	 */
	Reply kafkaConnect(String namespace, String name) {
		return onGroup("kafkaconnects", namespace, name, (path) -> send("GET", path, null, null));
	}

	Reply connectors(String namespace) {
		return onConnector(namespace, null, (path) -> send("GET", path, null, null));
	}

	Reply patchConnector(String namespace, String name, Map<String, Object> patch) {
		return onConnector(namespace, name, (path) -> send("PATCH", path, "application/merge-patch+json", patch));
	}

	Reply patchConnector(ConnectorProperties connector, Map<String, Object> patch) {
		return patchConnector(connector.strimzi().namespace(), connector.strimzi().name(), patch);
	}

	Reply configMap(String namespace, String name) {
		return send("GET", "/api/v1/namespaces/" + namespace + "/configmaps/" + name, null, null);
	}

	/**
	 * Writes a ConfigMap of slot-keeper's: merged into the one there, or created.
	 */
	Reply putConfigMap(String namespace, String name, Map<String, String> labels, Map<String, String> data) {
		Map<String, Object> metadata = new LinkedHashMap<>(Map.of("name", name, "labels", labels));
		Reply patched = send("PATCH", "/api/v1/namespaces/" + namespace + "/configmaps/" + name,
				"application/merge-patch+json", Map.of("metadata", metadata, "data", data));
		if (patched.status() == null || patched.status() != 404) {
			return patched;
		}
		return send("POST", "/api/v1/namespaces/" + namespace + "/configmaps", "application/json",
				Map.of("apiVersion", "v1", "kind", "ConfigMap", "metadata", metadata, "data", data));
	}

	private Reply onConnector(String namespace, String name, Function<String, Reply> call) {
		return onGroup("kafkaconnectors", namespace, name, call);
	}

	// The version is asked once; a server that serves neither is asked again at the next
	// call (Strimzi installed
	// later). A null name is the namespace's list.
	private Reply onGroup(String resources, String namespace, String name, Function<String, Reply> call) {
		if (this.version == null) {
			Reply group = send("GET", GROUP, null, null);
			this.version = group.ok() ? preferred(group) : null;
			if (this.version == null) {
				return group.unreachable() ? group
						: new Reply(group.status(), Map.of(),
								"the Kubernetes API serves no" + " kafka.strimzi.io v1 or v1beta2 ("
										+ ((group.error() != null) ? group.error() : "neither listed")
										+ "): is Strimzi installed?",
								false);
			}
		}
		return call.apply(GROUP + "/" + this.version + "/namespaces/" + namespace + "/" + resources
				+ ((name != null) ? "/" + name : ""));
	}

	private static String preferred(Reply group) {
		List<String> versions = ((List<?>) group.object().getOrDefault("versions", List.of())).stream()
			.map((each) -> String.valueOf(JsonObjects.asMap(each).get("version")))
			.toList();
		return versions.contains("v1") ? "v1" : versions.contains("v1beta2") ? "v1beta2" : null;
	}

	private Reply send(String method, String path, String contentType, Object body) {
		KubernetesApi.Answer answer = this.api.exchange(method, path, contentType, body);
		boolean denied = answer.status() != null && (answer.status() == 401 || answer.status() == 403);
		return new Reply(answer.status(), answer.object(),
				denied ? answer.error() + " (slot-keeper's service account needs the Role"
						+ " that the chart's connectors.strimzi.namespaces creates)" : answer.error(),
				answer.unreachable());
	}

	/**
	 * What the Kubernetes API answered.
	 *
	 * @param status the HTTP status, {@code null} when it was not reached
	 * @param object the JSON object answered, empty when none
	 * @param error what went wrong, {@code null} on a 2xx
	 * @param unreachable whether the API server could not be reached
	 */
	record Reply(Integer status, Map<String, Object> object, String error, boolean unreachable) {

		boolean ok() {
			return this.error == null;
		}

		/**
		 * The answer as a {@code KafkaConnector}'s fields.
		 * @return the fields, each absent when the answer had none
		 */
		KafkaConnectorResource connector() {
			return KafkaConnectorResource.of(this.object);
		}

		ConnectorLifecycle.Answer answer(Object body) {
			return ok() ? new ConnectorLifecycle.Answer(this.status, body, null)
					: new ConnectorLifecycle.Answer(this.status, null, this.error, this.unreachable);
		}

	}

}
