package io.slotkeeper.connect;

import java.time.Instant;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

import tools.jackson.databind.json.JsonMapper;

import io.slotkeeper.config.ConnectorProperties;
import io.slotkeeper.config.StrimziProperties;
import io.slotkeeper.connect.ConnectorLifecycle.Answer;
import io.slotkeeper.connect.KafkaConnectorResources.Reply;

/**
 * A connector changed the way the Strimzi operator lets a third party change it: through its {@code KafkaConnector}
 * resource, never Kafka Connect's REST API (closed to other pods by Strimzi's NetworkPolicy, its state changes
 * reverted at the next reconcile). Stop and resume set {@code spec.state} (the state it had is kept in the annotation
 * {@code slotkeeper.io/state-before-stop} until the resume puts it back); offsets are listed, altered and reset
 * through {@code spec.listOffsets} / {@code spec.alterOffsets} and the annotation {@code strimzi.io/connector-offsets}
 * with slot-keeper's ConfigMap {@code <connector>-slotkeeper-offsets}, done when the operator removed the annotation
 * and failed when it set a Warning condition; a restart is the annotations {@code strimzi.io/restart} and
 * {@code strimzi.io/restart-task}. The status is the resource's {@code status.connectorStatus}, Kafka Connect's own,
 * as the operator last saw it; {@link StrimziOperatorWaits} asks it to look again while a change is awaited.
 */
final class StrimziConnectorApi implements ConnectorApi {

	static final String STATE_BEFORE_STOP = "slotkeeper.io/state-before-stop";

	// The annotation's value where the resource had no spec.state of its own.
	private static final String UNSET = "unset";

	static final String OFFSETS_ANNOTATION = "strimzi.io/connector-offsets";

	private static final String RESTART = "strimzi.io/restart";

	private static final String RESTART_TASK = "strimzi.io/restart-task";

	private static final JsonMapper json = JsonMapper.builder().build();

	private final KafkaConnectorResources resources;

	private final StrimziOperatorWaits operator;

	StrimziConnectorApi(StrimziProperties settings) {
		this.resources = new KafkaConnectorResources(settings);
		this.operator = new StrimziOperatorWaits(this.resources);
	}

	@Override
	public ConnectorStatus status(ConnectorProperties connector) {
		return statusOf(connector, resource(connector));
	}

	private static ConnectorStatus statusOf(ConnectorProperties connector, Reply resource) {
		if (!resource.ok()) {
			return new ConnectorStatus(connector.name(), null, List.of(), resource.error(), Instant.now());
		}
		Map<String, Object> status = at(resource.object(), "status");
		Map<String, Object> connect = at(status, "connectorStatus");
		if (connect.isEmpty()) {
			return new ConnectorStatus(connector.name(), null, List.of(), describe(connector) + " has no connector"
					+ " status yet" + StrimziOperatorWaits.notReady(status).map((why) -> ": " + why).orElse(""),
					Instant.now());
		}
		return ConnectorStatus.of(connector.name(), connect);
	}

	@Override
	public ConnectorStatus freshStatus(ConnectorProperties connector) {
		this.operator.nudge(connector);
		return status(connector);
	}

	@Override
	public void settled(ConnectorProperties connector) {
		this.operator.settle(connector);
	}

	@Override
	public Integer autoRestarts(ConnectorProperties connector) {
		Reply resource = resource(connector);
		if (!resource.ok()) {
			return null;
		}
		Object count = at(resource.object(), "status", "autoRestart").get("count");
		return (count instanceof Number number) ? number.intValue() : 0;
	}

	@Override
	public ConnectorOutcome restart(ConnectorProperties connector) {
		Reply resource = resource(connector);
		Optional<String> unreachable = resource.ok() ? this.operator.connectUnreachable(connector, resource.object())
				: Optional.of(resource.error());
		if (unreachable.isPresent()) {
			return new ConnectorOutcome(connector.name(), false, (resource.ok() || resource.unreachable()) ? null
					: resource.status(), 1, unreachable.get());
		}
		// The restart annotations are acted on in the reconcile that then reads the status and auto-restarts a task
		// still FAILED: two restarts, counted as the operator's own, which lengthens its backoff for the next real
		// failure. A stop and start through spec.state leaves no FAILED task for it to see.
		if (Boolean.TRUE.equals(at(resource.object(), "spec", "autoRestart").get("enabled"))) {
			return restartThroughState(connector);
		}
		ConnectorStatus before = statusOf(connector, resource);
		Map<String, Object> annotations = new HashMap<>(Map.of(RESTART, "true"));
		before.tasks().stream().filter((task) -> "FAILED".equals(task.state())).findFirst()
			.ifPresent((task) -> annotations.put(RESTART_TASK, Integer.toString(task.id())));
		Reply patched = patch(connector, Map.of("metadata", Map.of("annotations", annotations)));
		if (!patched.ok()) {
			return new ConnectorOutcome(connector.name(), false, patched.unreachable() ? null : patched.status(), 1,
					patched.error());
		}
		Reply done = this.operator.awaitResource(connector, (now) -> annotations.keySet().stream()
			.noneMatch(at(now, "metadata", "annotations")::containsKey));
		if (done.ok()) {
			return new ConnectorOutcome(connector.name(), true, patched.status(), 1, null);
		}
		// However the wait ended, a restart left in place would fire at a later reconcile, at a moment nobody chose.
		this.operator.withdraw(connector, annotations.keySet());
		return new ConnectorOutcome(connector.name(), false, done.unreachable() ? null : patched.status(), 1,
				done.error());
	}

	private ConnectorOutcome restartThroughState(ConnectorProperties connector) {
		Answer stopped = stop(connector);
		if (!stopped.ok()) {
			return new ConnectorOutcome(connector.name(), false, stopped.unreachable() ? null : stopped.status(), 1,
					stopped.error());
		}
		Reply done = this.operator.awaitResource(connector, (now) -> "STOPPED".equals(at(now, "status",
				"connectorStatus", "connector").get("state")));
		// Put back whatever the wait came to: a restart never leaves the connector stopped.
		Answer restored = restore(connector, ChosenState.RUNNING);
		String error = !done.ok() ? done.error() : !restored.ok() ? "start: " + restored.error() : null;
		return new ConnectorOutcome(connector.name(), error == null, (done.unreachable() || restored.unreachable())
				? null : restored.status(), 1, error);
	}

	@Override
	public Answer config(ConnectorProperties connector) {
		Reply resource = resource(connector);
		Map<String, Object> spec = at(resource.object(), "spec");
		Map<String, Object> config = new LinkedHashMap<>(at(spec, "config"));
		if (spec.get("class") != null) {
			config.put("connector.class", spec.get("class"));
		}
		return resource.answer(config);
	}

	@Override
	public ChosenState chosenState(ConnectorProperties connector) {
		Reply resource = resource(connector);
		return resource.ok() ? chosenState(resource.object()) : null;
	}

	// slot-keeper's own stop keeps what the user had in the annotation; spec.pause (before spec.state, deprecated) is
	// what spec.state leaves unsaid.
	static ChosenState chosenState(Map<String, Object> resource) {
		Map<String, Object> spec = at(resource, "spec");
		Object kept = at(resource, "metadata", "annotations").get(STATE_BEFORE_STOP);
		Object state = (kept != null) ? (UNSET.equals(kept) ? null : kept) : spec.get("state");
		if (state == null) {
			return Boolean.TRUE.equals(spec.get("pause")) || "true".equals(String.valueOf(spec.get("pause")))
					? ChosenState.PAUSED : ChosenState.RUNNING;
		}
		return ChosenState.named(state.toString());
	}

	@Override
	public Answer stop(ConnectorProperties connector) {
		Reply resource = resource(connector);
		if (!resource.ok()) {
			return resource.answer(null);
		}
		Object state = at(resource.object(), "spec").getOrDefault("state", UNSET);
		Map<String, Object> annotations = at(resource.object(), "metadata", "annotations");
		Map<String, Object> patch = new HashMap<>(Map.of("spec", Map.of("state", "stopped")));
		if (!annotations.containsKey(STATE_BEFORE_STOP)) {
			patch.put("metadata", Map.of("annotations", Map.of(STATE_BEFORE_STOP, state)));
		}
		return patch(connector, patch).answer(null);
	}

	// The resource's spec.state goes back to exactly what it was (removed where the user had none), whatever the
	// choice read: the annotation is the resource's own record of it.
	@Override
	public Answer restore(ConnectorProperties connector, ChosenState chosen) {
		Reply resource = resource(connector);
		if (!resource.ok()) {
			return resource.answer(null);
		}
		Object before = at(resource.object(), "metadata", "annotations").get(STATE_BEFORE_STOP);
		Map<String, Object> annotations = new HashMap<>();
		annotations.put(STATE_BEFORE_STOP, null);
		Map<String, Object> spec = new HashMap<>();
		spec.put("state", (before == null) ? chosen.lowerCase() : UNSET.equals(before) ? null : before);
		return patch(connector, Map.of("spec", spec, "metadata", Map.of("annotations", annotations))).answer(null);
	}

	@Override
	public Answer offsets(ConnectorProperties connector) {
		Answer listed = annotateOffsets(connector, "list", Map.of("listOffsets", configMapRef(connector)));
		if (!listed.ok()) {
			return listed;
		}
		return readOffsets(connector);
	}

	// What the last list or alter left in slot-keeper's ConfigMap: reading the live offsets would change the resource.
	@Override
	public Answer readOffsets(ConnectorProperties connector) {
		Reply map = this.resources.configMap(connector.strimzi().namespace(), configMapName(connector));
		Object offsets = at(map.object(), "data").get("offsets.json");
		return map.answer((offsets != null) ? json.readValue(offsets.toString(), Map.class) : Map.of());
	}

	@Override
	public Answer alterOffsets(ConnectorProperties connector, Map<String, Object> offsets) {
		Reply written = this.resources.putConfigMap(connector.strimzi().namespace(), configMapName(connector),
				Map.of("app.kubernetes.io/managed-by", "slot-keeper", "slotkeeper.io/connector", connector.name()),
				Map.of("offsets.json", json.writeValueAsString(offsets)));
		if (!written.ok()) {
			return written.answer(null);
		}
		return annotateOffsets(connector, "alter", Map.of("alterOffsets", Map.of("fromConfigMap",
				Map.of("name", configMapName(connector)))));
	}

	@Override
	public Answer resetOffsets(ConnectorProperties connector) {
		return annotateOffsets(connector, "reset", Map.of());
	}

	// The operator acts on the annotation at its next reconcile (a change to the resource is one): it removes the
	// annotation once Kafka Connect accepted, or keeps it and sets a Warning condition.
	private Answer annotateOffsets(ConnectorProperties connector, String operation, Map<String, Object> spec) {
		Reply resource = resource(connector);
		if (!resource.ok()) {
			return resource.answer(null);
		}
		Optional<String> unreachable = this.operator.connectUnreachable(connector, resource.object());
		if (unreachable.isPresent()) {
			return ConnectorLifecycle.Answer.unreachable(unreachable.get());
		}
		Set<String> warnedBefore = StrimziOperatorWaits.warnings(resource.object());
		Map<String, Object> patch = new HashMap<>(Map.of("metadata", Map.of("annotations",
				Map.of(OFFSETS_ANNOTATION, operation))));
		if (!spec.isEmpty()) {
			patch.put("spec", spec);
		}
		Reply patched = patch(connector, patch);
		if (!patched.ok()) {
			return patched.answer(null);
		}
		Reply done = this.operator.awaitResource(connector, (now) -> !at(now, "metadata", "annotations")
			.containsKey(OFFSETS_ANNOTATION) || StrimziOperatorWaits.warning(now, warnedBefore).isPresent());
		if (!done.ok()) {
			this.operator.withdraw(connector, Set.of(OFFSETS_ANNOTATION));
			return done.answer(null);
		}
		Optional<String> warning = StrimziOperatorWaits.warning(done.object(), warnedBefore);
		if (warning.isPresent() && at(done.object(), "metadata", "annotations").containsKey(OFFSETS_ANNOTATION)) {
			this.operator.withdraw(connector, Set.of(OFFSETS_ANNOTATION));
			return new Answer(409, null, "the Strimzi operator refused " + operation + " of the offsets of "
					+ describe(connector) + ": " + warning.get());
		}
		return new Answer(200, null, null);
	}

	private Reply resource(ConnectorProperties connector) {
		return this.resources.connector(connector.strimzi().namespace(), connector.strimzi().name());
	}

	private Reply patch(ConnectorProperties connector, Map<String, Object> patch) {
		return this.resources.patchConnector(connector.strimzi().namespace(), connector.strimzi().name(), patch);
	}

	private static Map<String, Object> configMapRef(ConnectorProperties connector) {
		return Map.of("toConfigMap", Map.of("name", configMapName(connector)));
	}

	static String configMapName(ConnectorProperties connector) {
		return connector.strimzi().name() + "-slotkeeper-offsets";
	}

	static String describe(ConnectorProperties connector) {
		return "KafkaConnector " + connector.strimzi().namespace() + "/" + connector.strimzi().name();
	}

	static Map<String, Object> at(Map<String, Object> object, String... path) {
		Map<String, Object> current = object;
		for (String key : path) {
			current = ConnectorLifecycle.asMap(current.get(key));
		}
		return current;
	}

}
