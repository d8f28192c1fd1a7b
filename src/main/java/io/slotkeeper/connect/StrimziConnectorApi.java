package io.slotkeeper.connect;

import java.time.Clock;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import io.slotkeeper.config.ConnectorProperties;
import io.slotkeeper.config.StrimziProperties;
import io.slotkeeper.config.StrimziStatusFrom;
import io.slotkeeper.connect.ConnectorLifecycle.Answer;
import io.slotkeeper.connect.KafkaConnectorResources.Reply;

import static io.slotkeeper.connect.JsonObjects.at;

/**
 * A connector changed the way the Strimzi operator lets a third party change it: through
 * its {@code KafkaConnector} resource, never Kafka Connect's REST API (closed to other
 * pods by Strimzi's NetworkPolicy, its state changes reverted at the next reconcile).
 * Stop and resume set {@code spec.state} (the state it had is kept in the annotation
 * {@code slotkeeper.io/state-before-stop} until the resume puts it back); offsets are
 * listed, altered and reset through {@code spec.listOffsets} / {@code spec.alterOffsets}
 * and the annotation {@code strimzi.io/connector-offsets} with slot-keeper's ConfigMap
 * {@code <connector>-slotkeeper-offsets}, done when the operator removed the annotation
 * and failed when it set a Warning condition; a restart is the annotations
 * {@code strimzi.io/restart} and {@code strimzi.io/restart-task}. The status is the
 * resource's {@code status.connectorStatus}, Kafka Connect's own, as the operator last
 * saw it, and {@link StrimziOperatorWaits} asks it to look again while a change is
 * awaited; or, with {@code status-from: worker}, the worker's own, read by
 * {@link WorkerStatuses} where it can be. The state changes are {@link StrimziStates}',
 * the offsets {@link StrimziOffsets}', the restarts {@link StrimziRestarts}'.
 */
final class StrimziConnectorApi implements ConnectorApi {

	private final KafkaConnectorResources resources;

	private final StrimziOperatorWaits operator;

	private final StrimziOffsets offsets;

	private final StrimziStates states;

	private final WorkerStatuses workers;

	private final StrimziRestarts restarts;

	private final Clock clock;

	/**
	 * @param settings how the Kubernetes API is reached, and where states are read
	 * @param worker Kafka Connect's REST API, read (never changed) with
	 * {@code status-from: worker}
	 * @param clock when statuses are read and waits end
	 */
	StrimziConnectorApi(StrimziProperties settings, ConnectorApi worker, Clock clock) {
		this.clock = clock;
		this.resources = new KafkaConnectorResources(settings);
		this.operator = new StrimziOperatorWaits(this.resources, clock);
		this.offsets = new StrimziOffsets(this.resources, this.operator);
		this.states = new StrimziStates(this.resources);
		this.workers = (settings.statusFrom() == StrimziStatusFrom.WORKER)
				? new WorkerStatuses(this.resources, worker, settings.timeout()) : null;
		this.restarts = new StrimziRestarts(this.resources, this.operator, this.states);
	}

	@Override
	public ConnectorStatus status(ConnectorProperties connector) {
		return current(connector, this.resources.connector(connector));
	}

	private ConnectorStatus current(ConnectorProperties connector, Reply resource) {
		return fromWorker(connector, resource).orElseGet(() -> statusOf(connector, resource));
	}

	private Optional<ConnectorStatus> fromWorker(ConnectorProperties connector, Reply resource) {
		return (this.workers != null && resource.ok()) ? this.workers.read(connector, resource.connector())
				: Optional.empty();
	}

	private ConnectorStatus statusOf(ConnectorProperties connector, Reply resource) {
		if (!resource.ok()) {
			return new ConnectorStatus(connector.name(), null, List.of(), resource.error(), this.clock.instant());
		}
		KafkaConnectorResource.Status status = resource.connector().status();
		if (status.connectorStatus().isEmpty()) {
			return new ConnectorStatus(connector.name(), null, List.of(), describe(connector) + " has no connector"
					+ " status yet" + status.notReady().map((why) -> ": " + why).orElse(""), this.clock.instant());
		}
		return ConnectorStatus.of(connector.name(), status.connectorStatus(), this.clock.instant());
	}

	@Override
	public ConnectorStatus freshStatus(ConnectorProperties connector) {
		Optional<ConnectorStatus> live = (this.workers != null)
				? fromWorker(connector, this.resources.connector(connector)) : Optional.empty();
		if (live.isPresent()) {
			return live.get();
		}
		this.operator.nudge(connector);
		return statusOf(connector, this.resources.connector(connector));
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
		return resource.connector().status().autoRestarts();
	}

	// The image a KafkaConnect builds (spec.build) names its plugins' artifacts; one the
	// user built without spec.build cannot be looked into.
	@Override
	public ExtensionCheck extension(ConnectorProperties connector) {
		Reply resource = this.resources.connector(connector);
		if (!resource.ok()) {
			return ExtensionCheck.unknown("the KafkaConnector could not be read: " + resource.error());
		}
		Object cluster = resource.connector().labels().get(WorkerStatuses.CLUSTER_LABEL);
		if (cluster == null) {
			return ExtensionCheck.unknown(describe(connector) + " has no " + WorkerStatuses.CLUSTER_LABEL + " label");
		}
		String namespace = connector.strimzi().namespace();
		Reply connect = this.resources.kafkaConnect(namespace, cluster.toString());
		if (!connect.ok()) {
			return ExtensionCheck
				.unknown("KafkaConnect " + namespace + "/" + cluster + " could not be read: " + connect.error());
		}
		KafkaConnectResource read = KafkaConnectResource.of(connect.object());
		if (read.artifacts().stream().anyMatch((url) -> url.contains(ExtensionCheck.ARTIFACT))) {
			return new ExtensionCheck(true, "in the spec.build.plugins of KafkaConnect " + namespace + "/" + cluster);
		}
		return read.built()
				? new ExtensionCheck(false,
						"not in the spec.build.plugins of KafkaConnect " + namespace + "/" + cluster)
				: ExtensionCheck.unknown("KafkaConnect " + namespace + "/" + cluster
						+ " runs an image of its own (no spec.build): its plugins cannot be told");
	}

	@Override
	public ConnectorOutcome restart(ConnectorProperties connector) {
		return this.restarts.restart(connector, (resource) -> current(connector, resource));
	}

	@Override
	public Answer config(ConnectorProperties connector) {
		Reply resource = this.resources.connector(connector);
		return resource.answer(resource.connector().spec().connectorConfig());
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

}
