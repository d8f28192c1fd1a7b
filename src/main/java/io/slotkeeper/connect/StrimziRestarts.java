package io.slotkeeper.connect;

import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;

import io.slotkeeper.config.ConnectorProperties;
import io.slotkeeper.connect.ConnectorLifecycle.Answer;
import io.slotkeeper.connect.KafkaConnectorResources.Reply;

import static io.slotkeeper.connect.JsonObjects.at;

/**
 * A Strimzi-managed connector restarted as the operator lets a third party: the
 * annotations {@code strimzi.io/restart} and {@code strimzi.io/restart-task}, done when
 * the operator removed them; or, where the operator's own {@code autoRestart} is on, a
 * stop and start through {@code spec.state}.
 */
final class StrimziRestarts {

	private static final String RESTART = "strimzi.io/restart";

	private static final String RESTART_TASK = "strimzi.io/restart-task";

	private final KafkaConnectorResources resources;

	private final StrimziOperatorWaits operator;

	private final StrimziStates states;

	StrimziRestarts(KafkaConnectorResources resources, StrimziOperatorWaits operator, StrimziStates states) {
		this.resources = resources;
		this.operator = operator;
		this.states = states;
	}

	/**
	 * Restarts the connector and its failed task.
	 * @param connector the connector
	 * @param current its status, given its resource as just read
	 * @return the outcome
	 */
	public ConnectorOutcome restart(ConnectorProperties connector, Function<Reply, ConnectorStatus> current) {
		Reply resource = this.resources.connector(connector);
		Optional<String> unreachable = resource.ok() ? this.operator.connectUnreachable(connector, resource.connector())
				: Optional.of(resource.error());
		if (unreachable.isPresent()) {
			return new ConnectorOutcome(connector.name(), false,
					(resource.ok() || resource.unreachable()) ? null : resource.status(), 1, unreachable.get());
		}
		// The restart annotations are acted on in the reconcile that then reads the
		// status and auto-restarts a task
		// still FAILED: two restarts, counted as the operator's own, which lengthens its
		// backoff for the next real
		// failure. A stop and start through spec.state leaves no FAILED task for it to
		// see.
		if (resource.connector().spec().autoRestart()) {
			return restartThroughState(connector);
		}
		ConnectorStatus before = current.apply(resource);
		Map<String, Object> annotations = new HashMap<>(Map.of(RESTART, "true"));
		before.tasks()
			.stream()
			.filter((task) -> "FAILED".equals(task.state()))
			.findFirst()
			.ifPresent((task) -> annotations.put(RESTART_TASK, Integer.toString(task.id())));
		Reply patched = this.resources.patchConnector(connector,
				Map.of("metadata", Map.of("annotations", annotations)));
		if (!patched.ok()) {
			return new ConnectorOutcome(connector.name(), false, patched.unreachable() ? null : patched.status(), 1,
					patched.error());
		}
		Reply done = this.operator.awaitResource(connector,
				(now) -> annotations.keySet().stream().noneMatch(now.annotations()::containsKey));
		if (done.ok()) {
			return new ConnectorOutcome(connector.name(), true, patched.status(), 1, null);
		}
		// However the wait ended, a restart left in place would fire at a later
		// reconcile, at a moment nobody chose.
		this.operator.withdraw(connector, annotations.keySet());
		return new ConnectorOutcome(connector.name(), false, done.unreachable() ? null : patched.status(), 1,
				done.error());
	}

	private ConnectorOutcome restartThroughState(ConnectorProperties connector) {
		Answer stopped = this.states.stop(connector);
		if (!stopped.ok()) {
			return new ConnectorOutcome(connector.name(), false, stopped.unreachable() ? null : stopped.status(), 1,
					stopped.error());
		}
		Reply done = this.operator.awaitResource(connector, (now) -> "STOPPED".equals(now.status().connectorState()));
		// Put back whatever the wait came to: a restart never leaves the connector
		// stopped.
		Answer restored = this.states.restore(connector, ChosenState.RUNNING);
		String error = !done.ok() ? done.error() : !restored.ok() ? "start: " + restored.error() : null;
		return new ConnectorOutcome(connector.name(), error == null,
				(done.unreachable() || restored.unreachable()) ? null : restored.status(), 1, error);
	}

}
