package io.slotkeeper.connect;

import java.time.Instant;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

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
 * as the operator last saw it; {@link StrimziOperatorWaits} asks it to look again while a change is awaited. The state
 * changes are {@link StrimziStates}', the offsets {@link StrimziOffsets}'.
 */
final class StrimziConnectorApi implements ConnectorApi {

	private static final String RESTART = "strimzi.io/restart";

	private static final String RESTART_TASK = "strimzi.io/restart-task";

	private final KafkaConnectorResources resources;

	private final StrimziOperatorWaits operator;

	private final StrimziOffsets offsets;

	private final StrimziStates states;

	StrimziConnectorApi(StrimziProperties settings) {
		this.resources = new KafkaConnectorResources(settings);
		this.operator = new StrimziOperatorWaits(this.resources);
		this.offsets = new StrimziOffsets(this.resources, this.operator);
		this.states = new StrimziStates(this.resources);
	}

	@Override
	public ConnectorStatus status(ConnectorProperties connector) {
		return statusOf(connector, this.resources.connector(connector));
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
		Reply resource = this.resources.connector(connector);
		if (!resource.ok()) {
			return null;
		}
		Object count = at(resource.object(), "status", "autoRestart").get("count");
		return (count instanceof Number number) ? number.intValue() : 0;
	}

	@Override
	public ConnectorOutcome restart(ConnectorProperties connector) {
		Reply resource = this.resources.connector(connector);
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
		Reply patched = this.resources.patchConnector(connector, Map.of("metadata", Map.of("annotations", annotations)));
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
		Reply resource = this.resources.connector(connector);
		Map<String, Object> spec = at(resource.object(), "spec");
		Map<String, Object> config = new LinkedHashMap<>(at(spec, "config"));
		if (spec.get("class") != null) {
			config.put("connector.class", spec.get("class"));
		}
		return resource.answer(config);
	}

	@Override
	public ChosenState chosenState(ConnectorProperties connector) {
		return this.states.chosen(connector);
	}

	@Override
	public Answer stop(ConnectorProperties connector) {
		return this.states.stop(connector);
	}

	@Override
	public Answer restore(ConnectorProperties connector, ChosenState chosen) {
		return this.states.restore(connector, chosen);
	}

	@Override
	public Answer offsets(ConnectorProperties connector) {
		return this.offsets.list(connector);
	}

	@Override
	public Answer lastKnownOffsets(ConnectorProperties connector) {
		return this.offsets.lastListed(connector);
	}

	@Override
	public Answer alterOffsets(ConnectorProperties connector, Map<String, Object> offsets) {
		return this.offsets.alter(connector, offsets);
	}

	@Override
	public Answer resetOffsets(ConnectorProperties connector) {
		return this.offsets.reset(connector);
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
