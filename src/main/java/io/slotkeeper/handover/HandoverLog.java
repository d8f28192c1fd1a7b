package io.slotkeeper.handover;

import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The last handover of each connector, on this instance: what the slot API and the
 * {@code slots} health show until the next one.
 */
public final class HandoverLog {

	private final Map<String, ConnectorHandover> last = new ConcurrentHashMap<>();

	void record(ConnectorHandover handover) {
		this.last.put(handover.connector(), handover);
	}

	/**
	 * A connector's last handover.
	 * @param connector the connector's name
	 * @return the handover, empty when this instance made none
	 */
	public Optional<ConnectorHandover> last(String connector) {
		return Optional.ofNullable(this.last.get(connector));
	}

}
