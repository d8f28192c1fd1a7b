package io.slotkeeper.connect;

import java.util.HashMap;
import java.util.Map;
import java.util.function.Function;

import io.slotkeeper.config.ConnectorProperties;
import io.slotkeeper.connect.ConnectorLifecycle.Answer;
import io.slotkeeper.connect.KafkaConnectorResources.Reply;

/**
 * A Strimzi-managed connector's state as its user chose it and as slot-keeper changes it:
 * stop and resume set {@code spec.state}, the state it had kept in the annotation
 * {@code slotkeeper.io/state-before-stop} until the resume puts exactly that back.
 */
final class StrimziStates {

	static final String STATE_BEFORE_STOP = "slotkeeper.io/state-before-stop";

	// The annotation's value where the resource had no spec.state of its own.
	private static final String UNSET = "unset";

	// A resource that a user changes this often between a read and a patch is contended:
	// the last 409 is the answer.
	private static final int CONFLICT_ATTEMPTS = 5;

	private final KafkaConnectorResources resources;

	StrimziStates(KafkaConnectorResources resources) {
		this.resources = resources;
	}

	/**
	 * What the user chose for the connector, read from its resource.
	 * @param connector the connector
	 * @return the choice, {@code null} when the resource could not be read
	 */
	ChosenState chosen(ConnectorProperties connector) {
		Reply resource = this.resources.connector(connector);
		return resource.ok() ? chosenState(resource.connector()) : null;
	}

	// slot-keeper's own stop keeps what the user had in the annotation; spec.pause
	// (before spec.state, deprecated) is
	// what spec.state leaves unsaid.
	static ChosenState chosenState(KafkaConnectorResource resource) {
		Object kept = resource.annotations().get(STATE_BEFORE_STOP);
		Object state = (kept != null) ? (UNSET.equals(kept) ? null : kept) : resource.spec().state();
		if (state == null) {
			return resource.spec().pause() ? ChosenState.PAUSED : ChosenState.RUNNING;
		}
		return ChosenState.named(state.toString());
	}

	/**
	 * Sets {@code spec.state: stopped}, keeping the state the resource had in an
	 * annotation.
	 * @param connector the connector
	 * @return the answer
	 */
	Answer stop(ConnectorProperties connector) {
		return readThenPatch(connector, (read) -> {
			String state = (read.spec().state() != null) ? read.spec().state() : UNSET;
			Map<String, Object> patch = new HashMap<>(Map.of("spec", Map.of("state", "stopped")));
			if (!read.annotations().containsKey(STATE_BEFORE_STOP)) {
				patch.put("metadata", new HashMap<>(Map.of("annotations", Map.of(STATE_BEFORE_STOP, state))));
			}
			return patch;
		});
	}

	// The resource's spec.state goes back to exactly what it was (removed where the user
	// had none), whatever the
	// choice read: the annotation is the resource's own record of it.
	Answer restore(ConnectorProperties connector, ChosenState chosen) {
		return readThenPatch(connector, (read) -> {
			Object before = read.annotations().get(STATE_BEFORE_STOP);
			Map<String, Object> annotations = new HashMap<>();
			annotations.put(STATE_BEFORE_STOP, null);
			Map<String, Object> spec = new HashMap<>();
			spec.put("state", (before == null) ? chosen.lowerCase() : UNSET.equals(before) ? null : before);
			return new HashMap<>(Map.of("spec", spec, "metadata", new HashMap<>(Map.of("annotations", annotations))));
		});
	}

	// A patch made from what was read carries the resourceVersion read: a user's change
	// in between (GitOps setting spec.state) makes the API server answer 409, and the
	// patch is made again from the resource as it is now, so the user's state is the one
	// kept, never overwritten with the one read before it.
	@SuppressWarnings("unchecked")
	private Answer readThenPatch(ConnectorProperties connector,
			Function<KafkaConnectorResource, Map<String, Object>> patchOf) {
		Reply patched = null;
		for (int attempt = 0; attempt < CONFLICT_ATTEMPTS; attempt++) {
			Reply resource = this.resources.connector(connector);
			if (!resource.ok()) {
				return resource.answer(null);
			}
			KafkaConnectorResource read = resource.connector();
			Map<String, Object> patch = patchOf.apply(read);
			if (read.resourceVersion() != null) {
				((Map<String, Object>) patch.computeIfAbsent("metadata", (key) -> new HashMap<>()))
					.put("resourceVersion", read.resourceVersion());
			}
			patched = this.resources.patchConnector(connector, patch);
			if (patched.status() == null || patched.status() != 409) {
				break;
			}
		}
		return patched.answer(null);
	}

}
