package io.slotkeeper.connect;

import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

import tools.jackson.databind.json.JsonMapper;

import io.slotkeeper.config.ConnectorProperties;
import io.slotkeeper.connect.ConnectorLifecycle.Answer;
import io.slotkeeper.connect.KafkaConnectorResources.Reply;

import static io.slotkeeper.connect.JsonObjects.at;
import static io.slotkeeper.connect.StrimziConnectorApi.describe;

/**
 * A Strimzi-managed connector's offsets, changed the way the operator lets a third party
 * change them: listed, altered and reset through {@code spec.listOffsets} /
 * {@code spec.alterOffsets} and the annotation {@code strimzi.io/connector-offsets}, with
 * slot-keeper's ConfigMap {@code <connector>-slotkeeper-offsets}; done when the operator
 * removed the annotation, failed when it set a Warning condition.
 */
final class StrimziOffsets {

	static final String OFFSETS_ANNOTATION = "strimzi.io/connector-offsets";

	private static final JsonMapper json = JsonMapper.builder().build();

	private final KafkaConnectorResources resources;

	private final StrimziOperatorWaits operator;

	StrimziOffsets(KafkaConnectorResources resources, StrimziOperatorWaits operator) {
		this.resources = resources;
		this.operator = operator;
	}

	/**
	 * Asks the operator to list the offsets into slot-keeper's ConfigMap, then reads them
	 * there.
	 * @param connector the connector
	 * @return {@code {"offsets": [...]}} when listed
	 */
	Answer list(ConnectorProperties connector) {
		Answer listed = annotateOffsets(connector, "list", Map.of("listOffsets", configMapRef(connector)));
		if (!listed.ok()) {
			return listed;
		}
		return lastListed(connector);
	}

	// What the last list or alter left in slot-keeper's ConfigMap: reading the live
	// offsets would change the resource.
	Answer lastListed(ConnectorProperties connector) {
		Reply map = this.resources.configMap(connector.strimzi().namespace(), configMapName(connector));
		Object offsets = at(map.object(), "data").get("offsets.json");
		return map.answer((offsets != null) ? json.readValue(offsets.toString(), Map.class) : Map.of());
	}

	Answer alter(ConnectorProperties connector, Map<String, Object> offsets) {
		Reply written = this.resources.putConfigMap(connector.strimzi().namespace(), configMapName(connector),
				Map.of("app.kubernetes.io/managed-by", "slot-keeper", "slotkeeper.io/connector", connector.name()),
				Map.of("offsets.json", json.writeValueAsString(offsets)));
		if (!written.ok()) {
			return written.answer(null);
		}
		return annotateOffsets(connector, "alter",
				Map.of("alterOffsets", Map.of("fromConfigMap", Map.of("name", configMapName(connector)))));
	}

	Answer reset(ConnectorProperties connector) {
		return annotateOffsets(connector, "reset", Map.of());
	}

	// The operator acts on the annotation at its next reconcile (a change to the resource
	// is one): it removes the
	// annotation once Kafka Connect accepted, or keeps it and sets a Warning condition.
	private Answer annotateOffsets(ConnectorProperties connector, String operation, Map<String, Object> spec) {
		Reply resource = this.resources.connector(connector);
		if (!resource.ok()) {
			return resource.answer(null);
		}
		Optional<String> unreachable = this.operator.connectUnreachable(connector, resource.connector());
		if (unreachable.isPresent()) {
			return ConnectorLifecycle.Answer.unreachable(unreachable.get());
		}
		Set<String> warnedBefore = StrimziOperatorWaits.warnings(resource.connector());
		Map<String, Object> patch = new HashMap<>(
				Map.of("metadata", Map.of("annotations", Map.of(OFFSETS_ANNOTATION, operation))));
		if (!spec.isEmpty()) {
			patch.put("spec", spec);
		}
		Reply patched = this.resources.patchConnector(connector, patch);
		if (!patched.ok()) {
			return patched.answer(null);
		}
		Reply done = this.operator.awaitResource(connector, (now) -> !now.annotations().containsKey(OFFSETS_ANNOTATION)
				|| StrimziOperatorWaits.warning(now, warnedBefore).isPresent());
		if (!done.ok()) {
			this.operator.withdraw(connector, Set.of(OFFSETS_ANNOTATION));
			return done.answer(null);
		}
		Optional<String> warning = StrimziOperatorWaits.warning(done.connector(), warnedBefore);
		if (warning.isPresent() && done.connector().annotations().containsKey(OFFSETS_ANNOTATION)) {
			this.operator.withdraw(connector, Set.of(OFFSETS_ANNOTATION));
			return new Answer(409, null, "the Strimzi operator refused " + operation + " of the offsets of "
					+ describe(connector) + ": " + warning.get());
		}
		return new Answer(200, null, null);
	}

	private static Map<String, Object> configMapRef(ConnectorProperties connector) {
		return Map.of("toConfigMap", Map.of("name", configMapName(connector)));
	}

	static String configMapName(ConnectorProperties connector) {
		return connector.strimzi().name() + "-slotkeeper-offsets";
	}

}
