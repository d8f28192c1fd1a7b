package io.slotkeeper.events;

import java.util.Optional;
import java.util.function.Consumer;

import io.slotkeeper.audit.Happening;
import io.slotkeeper.config.ConnectorProperties;
import io.slotkeeper.config.EventsProperties;
import io.slotkeeper.fleet.Fleet;

/**
 * Tells each {@link Happening} as a Kubernetes Event on the object a user describes: the
 * slot's connector's {@code KafkaConnector} where it is one (its {@code uid} read by the
 * recorder, off the caller's thread), else slot-keeper's own Pod; nothing where neither
 * is known (outside a pod, a target without a Strimzi connector).
 */
final class HappeningEvents implements Consumer<Happening> {

	private final Fleet fleet;

	private final Optional<KubernetesEvent.Subject> pod;

	private final EventRecorder recorder;

	HappeningEvents(Fleet fleet, EventsProperties settings, EventRecorder recorder) {
		this.fleet = fleet;
		this.pod = settings.podKnown() ? Optional.of(new KubernetesEvent.Subject("v1", "Pod", settings.podNamespace(),
				settings.podName(), settings.podUid())) : Optional.empty();
		this.recorder = recorder;
	}

	@Override
	public void accept(Happening happening) {
		subject(happening).ifPresent((subject) -> this.recorder
			.record(new KubernetesEvent(subject, happening.warning() ? KubernetesEvent.WARNING : KubernetesEvent.NORMAL,
					happening.reason(), happening.action(), happening.note())));
	}

	private Optional<KubernetesEvent.Subject> subject(Happening happening) {
		Optional<KubernetesEvent.Subject> connector = Optional.ofNullable(happening.slot())
			.flatMap(
					(slot) -> this.fleet.find(happening.target()).flatMap((target) -> target.slots().connectorOf(slot)))
			.map(ConnectorProperties::strimzi)
			.map((strimzi) -> new KubernetesEvent.Subject(KubernetesEvent.Subject.STRIMZI, "KafkaConnector",
					strimzi.namespace(), strimzi.name(), ""));
		return connector.or(() -> this.pod);
	}

}
