package io.slotkeeper.slot.watching;

import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

import io.slotkeeper.connect.ConnectorClient;
import io.slotkeeper.connect.ConnectorStatus;
import io.slotkeeper.fleet.Target;

/**
 * The state of every slot's connector as the last slot poll of its target asked Kafka Connect, so that a listing
 * never waits for Kafka Connect: a slow or hung one delays only its own target's poll.
 */
public final class ConnectorStates {

	private final ConnectorClient connectors;

	private final Map<String, Map<String, ConnectorStatus>> byTarget = new ConcurrentHashMap<>();

	ConnectorStates(ConnectorClient connectors) {
		this.connectors = connectors;
	}

	void refresh(Target target) {
		Map<String, ConnectorStatus> states = new ConcurrentHashMap<>();
		target.properties().slots().forEach((policy) -> {
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

}
