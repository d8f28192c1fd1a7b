package io.slotkeeper.slot.watching;

import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

import io.slotkeeper.connect.ConnectorClient;
import io.slotkeeper.connect.ConnectorStatus;
import io.slotkeeper.connect.HandoverLog;
import io.slotkeeper.fleet.Target;

/**
 * The state of every slot's connector as the last slot poll of its target asked Kafka Connect, so that a listing
 * never waits for Kafka Connect: a slow or hung one delays only its own target's poll.
 */
public final class ConnectorStates {

	private final ConnectorClient connectors;

	private final HandoverLog handovers;

	private final Map<String, Map<String, ConnectorStatus>> byTarget = new ConcurrentHashMap<>();

	ConnectorStates(ConnectorClient connectors, HandoverLog handovers) {
		this.connectors = connectors;
		this.handovers = handovers;
	}

	void refresh(Target target) {
		Map<String, ConnectorStatus> states = new ConcurrentHashMap<>();
		target.policies().forEach((policy) -> {
			if (policy.connector() != null) {
				states.put(policy.name(), this.connectors.status(policy.connector()));
			}
		});
		this.byTarget.put(target.name(), states);
	}

	/**
	 * A slot's connector as last checked.
	 * @param target the target's name
	 * @param slot the slot's name
	 * @return its status with {@code checkedAt}, empty before the first check
	 */
	public Optional<ConnectorStatus> of(String target, String slot) {
		return Optional.ofNullable(this.byTarget.getOrDefault(target, Map.of()).get(slot));
	}

	/**
	 * The slots whose connector a recreate left not running and that still does not run, as last checked.
	 * @param target the target
	 * @return by slot, what the last handover came to, its warning and trace included
	 */
	Map<String, String> notRunningAfterHandover(Target target) {
		Map<String, String> slots = new java.util.TreeMap<>();
		target.policies().stream().filter((policy) -> policy.connector() != null).forEach((policy) ->
				this.handovers.last(policy.connector().name())
					.filter((handover) -> !handover.running())
					.filter((handover) -> of(target.name(), policy.name()).map((now) -> !now.running()).orElse(true))
					.ifPresent((handover) -> slots.put(policy.name(), handover.describe())));
		return slots;
	}

	void forget(String target) {
		this.byTarget.remove(target);
	}
}
