package io.slotkeeper.discovery;

import io.slotkeeper.connect.FoundConnector;

/**
 * One found connector and where it was matched.
 *
 * @param connector the connector
 * @param target the target whose slot it consumes, {@code null} when none
 * @param problem why it is not used, {@code null} when it is
 * @param used whether it is its slot's connector
 */
record ConnectorMatch(FoundConnector connector, String target, String problem, boolean used) {

	static ConnectorMatch unprotected(FoundConnector connector, String why) {
		return new ConnectorMatch(connector, null, why, false);
	}

	boolean unprotected() {
		return this.target == null;
	}

}
