package io.slotkeeper.connect;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Predicate;

import io.slotkeeper.config.ConnectorProperties;
import io.slotkeeper.connect.KafkaConnectorResources.Reply;

import static io.slotkeeper.connect.JsonObjects.at;

/**
 * Waiting for the Strimzi operator to act on a {@code KafkaConnector}: it acts at its
 * reconciles, on every change to the resource and otherwise every 2 minutes, and says
 * what it did in the resource (an annotation removed, a Warning condition, the status). A
 * wait asks it to look again by setting slot-keeper's annotation
 * {@code slotkeeper.io/refreshed-at}, at most every 2 s; a resource NotReady without
 * {@code connectorStatus} is one whose Kafka Connect the operator cannot reach; every
 * wait is bounded by the connector's {@code running-timeout}.
 */
final class StrimziOperatorWaits {

	static final String REFRESHED_AT = "slotkeeper.io/refreshed-at";

	private static final Duration NUDGE_EVERY = Duration.ofSeconds(2);

	private final KafkaConnectorResources resources;

	private final Map<String, Instant> lastNudge = new ConcurrentHashMap<>();

	private final Clock clock;

	StrimziOperatorWaits(KafkaConnectorResources resources, Clock clock) {
		this.resources = resources;
		this.clock = clock;
	}

	void nudge(ConnectorProperties connector) {
		String key = connector.strimzi().namespace() + "/" + connector.strimzi().name();
		Instant now = this.clock.instant();
		Instant last = this.lastNudge.get(key);
		if (last == null || !now.isBefore(last.plus(NUDGE_EVERY))) {
			this.lastNudge.put(key, now);
			this.resources.patchConnector(connector,
					Map.of("metadata", Map.of("annotations", Map.of(REFRESHED_AT, now.toString()))));
		}
	}

	// A wait that asked the operator to look again takes its annotation back when it
	// ends: nothing of slot-keeper's
	// stays on the user's resource.
	void settle(ConnectorProperties connector) {
		if (this.lastNudge.remove(connector.strimzi().namespace() + "/" + connector.strimzi().name()) != null) {
			withdraw(connector, Set.of(REFRESHED_AT));
		}
	}

	// Left in place, a refused or unreachable change would be made by a later reconcile,
	// at a moment nobody chose.
	void withdraw(ConnectorProperties connector, Set<String> keys) {
		Map<String, Object> annotations = new HashMap<>();
		keys.forEach((key) -> annotations.put(key, null));
		this.resources.patchConnector(connector, Map.of("metadata", Map.of("annotations", annotations)));
	}

	/**
	 * The offsets Warning conditions a resource has, each as its reason, message and
	 * transition time: taken before a change is asked for, so that a Warning the operator
	 * sets after is told from an older one by what it is, not by its time (an operator
	 * whose clock is behind stamps a new one earlier than slot-keeper's clock says).
	 * @param resource the resource
	 * @return the Warnings, each as one text
	 */
	static Set<String> warnings(KafkaConnectorResource resource) {
		return resource.status()
			.conditions()
			.stream()
			.filter((condition) -> "Warning".equals(condition.type())
					&& String.valueOf(condition.reason()).endsWith("Offsets"))
			.map((condition) -> condition.reason() + ": " + condition.message() + " @" + condition.lastTransitionTime())
			.collect(java.util.stream.Collectors.toCollection(java.util.LinkedHashSet::new));
	}

	/**
	 * An offsets Warning the resource has that it did not have before.
	 * @param resource the resource now
	 * @param before its Warnings before the change was asked for ({@link #warnings})
	 * @return the Warning's reason and message
	 */
	static Optional<String> warning(KafkaConnectorResource resource, Set<String> before) {
		return warnings(resource).stream()
			.filter((warning) -> !before.contains(warning))
			.map((warning) -> warning.substring(0, warning.lastIndexOf(" @")))
			.findFirst();
	}

	// The operator reads the connector through Kafka Connect: a NotReady resource without
	// connectorStatus is one whose
	// Connect it cannot reach (a worker down), so a change now would wait in vain; the
	// handover waits instead.
	// Said, it also asks the operator to look again: otherwise a Connect back up is only
	// noticed at its next full
	// reconciliation, minutes later.
	Optional<String> connectUnreachable(ConnectorProperties connector, KafkaConnectorResource resource) {
		if (!resource.status().connectorStatus().isEmpty()) {
			return Optional.empty();
		}
		Optional<String> why = resource.status()
			.notReady()
			.map((reason) -> "the Strimzi operator cannot reach Kafka Connect for " + describe(connector) + " ("
					+ reason + ")");
		why.ifPresent((unreachable) -> nudge(connector));
		return why;
	}

	Reply awaitResource(ConnectorProperties connector, Predicate<KafkaConnectorResource> done) {
		try {
			return awaitNudging(connector, done);
		}
		finally {
			settle(connector);
		}
	}

	private Reply awaitNudging(ConnectorProperties connector, Predicate<KafkaConnectorResource> done) {
		Instant deadline = this.clock.instant().plus(connector.runningTimeout());
		Reply resource = this.resources.connector(connector);
		while (resource.ok() && !done.test(resource.connector())) {
			Optional<String> unreachable = connectUnreachable(connector, resource.connector());
			if (unreachable.isPresent()) {
				return new Reply(null, resource.object(), unreachable.get(), true);
			}
			if (!this.clock.instant().isBefore(deadline) || !ConnectorClient.pause(ConnectorWaits.CHECK_EVERY)) {
				return new Reply(resource.status(), resource.object(),
						"the Strimzi operator did not act on " + describe(connector) + " within "
								+ connector.runningTimeout().toSeconds() + " s (is it running"
								+ " and watching namespace " + connector.strimzi().namespace() + "?)",
						false);
			}
			nudge(connector);
			resource = this.resources.connector(connector);
		}
		return resource;
	}

	private static String describe(ConnectorProperties connector) {
		return StrimziConnectorApi.describe(connector);
	}

}
