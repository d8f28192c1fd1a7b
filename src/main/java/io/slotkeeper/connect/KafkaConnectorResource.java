package io.slotkeeper.connect;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The fields of a Strimzi {@code KafkaConnector} (API {@code kafka.strimzi.io/v1beta2})
 * that slot-keeper reads, and nothing else: a field missing or of another shape reads as
 * absent, never as an error, so that an operator of another version is read as far as it
 * agrees. Written back only through merge patches of the fields slot-keeper owns.
 *
 * @param name {@code metadata.name}, {@code null} when absent
 * @param resourceVersion {@code metadata.resourceVersion}, which a patch that depends on
 * what was read carries, so that the API server refuses it (409) when the resource
 * changed since; {@code null} when absent
 * @param labels {@code metadata.labels}
 * @param annotations {@code metadata.annotations}
 * @param spec what the user asked for
 * @param status what the operator last saw
 */
record KafkaConnectorResource(String name, String resourceVersion, Map<String, Object> labels,
		Map<String, Object> annotations, Spec spec, Status status) {

	/**
	 * Reads the fields from a resource as the API answered it.
	 * @param object the resource's JSON object
	 * @return its fields
	 */
	static KafkaConnectorResource of(Map<String, Object> object) {
		Map<String, Object> metadata = JsonObjects.at(object, "metadata");
		Map<String, Object> spec = JsonObjects.at(object, "spec");
		Map<String, Object> status = JsonObjects.at(object, "status");
		Object pause = spec.get("pause");
		Object count = JsonObjects.at(status, "autoRestart").get("count");
		Object conditions = status.get("conditions");
		return new KafkaConnectorResource(text(metadata.get("name")), text(metadata.get("resourceVersion")),
				JsonObjects.at(metadata, "labels"), JsonObjects.at(metadata, "annotations"),
				new Spec(text(spec.get("class")), JsonObjects.at(spec, "config"), text(spec.get("state")),
						Boolean.TRUE.equals(pause) || "true".equals(String.valueOf(pause)),
						Boolean.TRUE.equals(JsonObjects.at(spec, "autoRestart").get("enabled"))),
				new Status(JsonObjects.at(status, "connectorStatus"),
						((conditions instanceof List<?> list) ? list : List.of()).stream()
							.map(JsonObjects::asMap)
							.map((condition) -> new Condition(text(condition.get("type")),
									text(condition.get("reason")), text(condition.get("message")),
									text(condition.get("lastTransitionTime"))))
							.toList(),
						(count instanceof Number number) ? number.intValue() : 0));
	}

	private static String text(Object value) {
		return (value != null) ? value.toString() : null;
	}

	/**
	 * The resource's {@code spec}.
	 *
	 * @param connectorClass {@code class}
	 * @param config {@code config}, without the class
	 * @param state {@code state} ({@code running}, {@code paused}, {@code stopped}),
	 * {@code null} when unset
	 * @param pause {@code pause}, the deprecated way to pause that {@code state}
	 * overrides
	 * @param autoRestart {@code autoRestart.enabled}
	 */
	record Spec(String connectorClass, Map<String, Object> config, String state, boolean pause, boolean autoRestart) {

		/**
		 * The configuration as Kafka Connect keeps it: the resource keeps the class
		 * beside it, where Kafka Connect keeps it inside.
		 * @return the configuration with {@code connector.class} when the class is set
		 */
		Map<String, Object> connectorConfig() {
			Map<String, Object> config = new LinkedHashMap<>(this.config);
			if (this.connectorClass != null) {
				config.put("connector.class", this.connectorClass);
			}
			return config;
		}

	}

	/**
	 * The resource's {@code status}.
	 *
	 * @param connectorStatus {@code connectorStatus}: Kafka Connect's status as the
	 * operator last read it, empty when it could not
	 * @param conditions {@code conditions}
	 * @param autoRestarts {@code autoRestart.count}, 0 when absent
	 */
	record Status(Map<String, Object> connectorStatus, List<Condition> conditions, int autoRestarts) {

		/**
		 * The connector's state in {@code connectorStatus}.
		 * @return for example {@code RUNNING}, {@code null} when absent
		 */
		String connectorState() {
			return text(JsonObjects.at(this.connectorStatus, "connector").get("state"));
		}

		/**
		 * The first {@code NotReady} condition, in words.
		 * @return its reason and message, empty when the resource is not NotReady
		 */
		Optional<String> notReady() {
			return this.conditions.stream()
				.filter((condition) -> "NotReady".equals(condition.type()))
				.map((condition) -> "NotReady, " + condition.reason() + ": " + condition.message())
				.findFirst();
		}

	}

	/**
	 * One of the status's conditions.
	 *
	 * @param type for example {@code Ready}, {@code NotReady}, {@code Warning}
	 * @param reason its reason
	 * @param message its message
	 * @param lastTransitionTime when it last changed, as the operator's clock said it
	 */
	record Condition(String type, String reason, String message, String lastTransitionTime) {

	}

}
