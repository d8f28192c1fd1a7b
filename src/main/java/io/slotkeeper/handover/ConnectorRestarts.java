package io.slotkeeper.handover;

import io.slotkeeper.connect.ConnectorClient;
import io.slotkeeper.connect.ConnectorOutcome;
import io.slotkeeper.fleet.Target;
import io.slotkeeper.problem.ProblemException;
import io.slotkeeper.problem.ProblemKind;

/**
 * A connector restart an operator asks for: the connector and its failed tasks, or the
 * problem Kafka Connect's refusal comes to.
 */
public class ConnectorRestarts {

	private final ConnectorClient connectors;

	/**
	 * Creates the restarts.
	 * @param connectors the Kafka Connect client
	 */
	public ConnectorRestarts(ConnectorClient connectors) {
		this.connectors = connectors;
	}

	/**
	 * Restarts a slot's connector and its failed tasks.
	 * @param target the target
	 * @param slot the slot's name
	 * @return what the restart came to
	 * @throws ProblemException ({@link ProblemKind#CONNECTOR_RESTART_FAILED}) when Kafka
	 * Connect did not accept it
	 */
	public ConnectorOutcome restart(Target target, String slot) {
		ConnectorOutcome outcome = this.connectors.restart(target.slots().connector(slot));
		if (!outcome.restarted()) {
			throw new ProblemException(ProblemKind.CONNECTOR_RESTART_FAILED,
					"Restart of connector '" + outcome.connector() + "' failed: " + outcome.detail())
				.with("target", target.name())
				.with("slot", slot)
				.with("connector", outcome.connector())
				.with("connectStatus", outcome.status())
				.with("attempts", outcome.attempts());
		}
		return outcome;
	}

}
