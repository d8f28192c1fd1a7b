package io.slotkeeper.slot.watching;

import io.slotkeeper.connect.ConnectorClient;

/**
 * The watch's shared state as the application wires it, for tests of what reads it.
 *
 * @param insights what polls concluded
 * @param states the connectors' states as polls checked them
 */
public record SlotWatchFixtures(SlotInsights insights, ConnectorStates states) {

	/**
	 * Empty insights and states.
	 * @param connectors the Kafka Connect client the states use
	 */
	public SlotWatchFixtures(ConnectorClient connectors) {
		this(new SlotInsights(), new ConnectorStates(connectors));
	}

}
