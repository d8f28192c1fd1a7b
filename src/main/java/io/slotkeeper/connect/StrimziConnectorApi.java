package io.slotkeeper.connect;

import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Predicate;

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
 * as the operator last saw it: while a change is awaited, slot-keeper's annotation {@code slotkeeper.io/refreshed-at}
 * is set (at most every 2 s) so that the operator looks again. Each wait is bounded by the connector's
 * {@code running-timeout}.
 */
final class StrimziConnectorApi implements ConnectorApi {

	static final String STATE_BEFORE_STOP = "slotkeeper.io/state-before-stop";

	static final String OFFSETS_ANNOTATION = "strimzi.io/connector-offsets";

	static final String REFRESHED_AT = "slotkeeper.io/refreshed-at";

	private static final Duration NUDGE_EVERY = Duration.ofSeconds(2);

	private static final String RESTART = "strimzi.io/restart";

	private static final String RESTART_TASK = "strimzi.io/restart-task";

	private static final JsonMapper json = JsonMapper.builder().build();

	private final KafkaConnectorResources resources;

	private final Map<String, Instant> lastNudge = new ConcurrentHashMap<>();

	StrimziConnectorApi(StrimziProperties settings) {
		this.resources = new KafkaConnectorResources(settings);
	}

	@Override
	public ConnectorStatus status(ConnectorProperties connector) {
		Reply resource = resource(connector);
		if (!resource.ok()) {
			return new ConnectorStatus(connector.name(), null, List.of(), resource.error(), Instant.now());
		}
		Map<String, Object> status = at(resource.object(), "status");
		Map<String, Object> connect = at(status, "connectorStatus");
		if (connect.isEmpty()) {
			return new ConnectorStatus(connector.name(), null, List.of(), describe(connector) + " has no connector"
					+ " status yet" + notReady(status).map((why) -> ": " + why).orElse(""), Instant.now());
		}
		return ConnectorStatus.of(connector.name(), connect);
	}

	// The operator reconciles a resource on every change to it and otherwise every 2 minutes: a change of an
	// annotation of slot-keeper's own makes it look at the connector now and write what it found into the status.
	@Override
	public ConnectorStatus freshStatus(ConnectorProperties connector) {
		nudge(connector);
		return status(connector);
	}

	private void nudge(ConnectorProperties connector) {
		String key = connector.strimzi().namespace() + "/" + connector.strimzi().name();
		Instant now = Instant.now();
		Instant last = this.lastNudge.get(key);
		if (last == null || !now.isBefore(last.plus(NUDGE_EVERY))) {
			this.lastNudge.put(key, now);
			patch(connector, Map.of("metadata", Map.of("annotations", Map.of(REFRESHED_AT, now.toString()))));
		}
	}

	@Override
	public ConnectorOutcome restart(ConnectorProperties connector) {
		Reply resource = resource(connector);
		Optional<String> unreachable = resource.ok() ? connectUnreachable(connector, resource.object())
				: Optional.of(resource.error());
		if (unreachable.isPresent()) {
			return new ConnectorOutcome(connector.name(), false, (resource.ok() || resource.unreachable()) ? null
					: resource.status(), 1, unreachable.get());
		}
		ConnectorStatus before = status(connector);
		Map<String, Object> annotations = new HashMap<>(Map.of(RESTART, "true"));
		before.tasks().stream().filter((task) -> "FAILED".equals(task.state())).findFirst()
			.ifPresent((task) -> annotations.put(RESTART_TASK, Integer.toString(task.id())));
		Reply patched = patch(connector, Map.of("metadata", Map.of("annotations", annotations)));
		if (!patched.ok()) {
			return new ConnectorOutcome(connector.name(), false, patched.unreachable() ? null : patched.status(), 1,
					patched.error());
		}
		Reply done = awaitResource(connector, (now) -> annotations.keySet().stream()
			.noneMatch(at(now, "metadata", "annotations")::containsKey));
		if (done.unreachable()) {
			withdraw(connector, annotations.keySet());
			return new ConnectorOutcome(connector.name(), false, null, 1, done.error());
		}
		return done.ok() ? new ConnectorOutcome(connector.name(), true, patched.status(), 1, null)
				: new ConnectorOutcome(connector.name(), false, patched.status(), 1, done.error());
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
	public Answer stop(ConnectorProperties connector) {
		Reply resource = resource(connector);
		if (!resource.ok()) {
			return resource.answer(null);
		}
		Object state = at(resource.object(), "spec").getOrDefault("state", "running");
		Map<String, Object> annotations = at(resource.object(), "metadata", "annotations");
		Map<String, Object> patch = new HashMap<>(Map.of("spec", Map.of("state", "stopped")));
		if (!annotations.containsKey(STATE_BEFORE_STOP)) {
			patch.put("metadata", Map.of("annotations", Map.of(STATE_BEFORE_STOP, state)));
		}
		return patch(connector, patch).answer(null);
	}

	@Override
	public Answer resume(ConnectorProperties connector) {
		Reply resource = resource(connector);
		if (!resource.ok()) {
			return resource.answer(null);
		}
		Object before = at(resource.object(), "metadata", "annotations").getOrDefault(STATE_BEFORE_STOP, "running");
		Map<String, Object> annotations = new HashMap<>();
		annotations.put(STATE_BEFORE_STOP, null);
		return patch(connector, Map.of("spec", Map.of("state", "stopped".equals(before) ? "running" : before),
				"metadata", Map.of("annotations", annotations))).answer(null);
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
		Optional<String> unreachable = connectUnreachable(connector, resource.object());
		if (unreachable.isPresent()) {
			return ConnectorLifecycle.Answer.unreachable(unreachable.get());
		}
		Instant asked = Instant.now().minusSeconds(1);
		Map<String, Object> patch = new HashMap<>(Map.of("metadata", Map.of("annotations",
				Map.of(OFFSETS_ANNOTATION, operation))));
		if (!spec.isEmpty()) {
			patch.put("spec", spec);
		}
		Reply patched = patch(connector, patch);
		if (!patched.ok()) {
			return patched.answer(null);
		}
		Reply done = awaitResource(connector, (now) -> !at(now, "metadata", "annotations")
			.containsKey(OFFSETS_ANNOTATION) || warning(now, asked).isPresent());
		if (!done.ok()) {
			withdraw(connector, Set.of(OFFSETS_ANNOTATION));
			return done.answer(null);
		}
		Optional<String> warning = warning(done.object(), asked);
		if (warning.isPresent() && at(done.object(), "metadata", "annotations").containsKey(OFFSETS_ANNOTATION)) {
			withdraw(connector, Set.of(OFFSETS_ANNOTATION));
			return new Answer(409, null, "the Strimzi operator refused " + operation + " of the offsets of "
					+ describe(connector) + ": " + warning.get());
		}
		return new Answer(200, null, null);
	}

	// Left in place, a refused or unreachable change would be made by a later reconcile, at a moment nobody chose.
	private void withdraw(ConnectorProperties connector, Set<String> keys) {
		Map<String, Object> annotations = new HashMap<>();
		keys.forEach((key) -> annotations.put(key, null));
		patch(connector, Map.of("metadata", Map.of("annotations", annotations)));
	}

	private static Optional<String> warning(Map<String, Object> resource, Instant since) {
		Object conditions = at(resource, "status").get("conditions");
		if (!(conditions instanceof List<?> list)) {
			return Optional.empty();
		}
		return list.stream().map(ConnectorLifecycle::asMap)
			.filter((condition) -> "Warning".equals(condition.get("type"))
					&& String.valueOf(condition.get("reason")).endsWith("Offsets")
					&& !transitionedBefore(condition, since))
			.map((condition) -> condition.get("reason") + ": " + condition.get("message"))
			.findFirst();
	}

	private static boolean transitionedBefore(Map<String, Object> condition, Instant since) {
		try {
			return Instant.parse(String.valueOf(condition.get("lastTransitionTime"))).isBefore(since);
		}
		catch (RuntimeException ex) {
			return false;
		}
	}

	// The operator reads the connector through Kafka Connect: a NotReady resource without connectorStatus is one whose
	// Connect it cannot reach (a worker down), so a change now would wait in vain; the handover waits instead.
	// Said, it also asks the operator to look again: otherwise a Connect back up is only noticed at its next full
	// reconciliation, minutes later.
	private Optional<String> connectUnreachable(ConnectorProperties connector, Map<String, Object> resource) {
		Map<String, Object> status = at(resource, "status");
		if (!at(status, "connectorStatus").isEmpty()) {
			return Optional.empty();
		}
		Optional<String> why = notReady(status).map((reason) -> "the Strimzi operator cannot reach Kafka Connect for "
				+ describe(connector) + " (" + reason + ")");
		why.ifPresent((unreachable) -> nudge(connector));
		return why;
	}

	private static Optional<String> notReady(Map<String, Object> status) {
		Object conditions = status.get("conditions");
		if (!(conditions instanceof List<?> list)) {
			return Optional.empty();
		}
		return list.stream().map(ConnectorLifecycle::asMap).filter((c) -> "NotReady".equals(c.get("type")))
			.map((c) -> "NotReady, " + c.get("reason") + ": " + c.get("message")).findFirst();
	}

	private Reply awaitResource(ConnectorProperties connector, Predicate<Map<String, Object>> done) {
		Instant deadline = Instant.now().plus(connector.runningTimeout());
		Reply resource = resource(connector);
		while (resource.ok() && !done.test(resource.object())) {
			Optional<String> unreachable = connectUnreachable(connector, resource.object());
			if (unreachable.isPresent()) {
				return new Reply(null, resource.object(), unreachable.get(), true);
			}
			if (!Instant.now().isBefore(deadline) || !ConnectorClient.pause(ConnectorHandovers.CHECK_EVERY)) {
				return new Reply(resource.status(), resource.object(), "the Strimzi operator did not act on "
						+ describe(connector) + " within " + connector.runningTimeout().toSeconds() + " s (is it running"
						+ " and watching namespace " + connector.strimzi().namespace() + "?)", false);
			}
			nudge(connector);
			resource = resource(connector);
		}
		return resource;
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

	private static String describe(ConnectorProperties connector) {
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
