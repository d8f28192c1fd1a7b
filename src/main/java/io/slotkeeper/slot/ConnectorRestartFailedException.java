package io.slotkeeper.slot;

import org.springframework.http.HttpStatus;

import io.slotkeeper.api.ApiException;
import io.slotkeeper.connect.ConnectorOutcome;

/**
 * Kafka Connect did not accept a connector restart asked for through the API.
 */
public class ConnectorRestartFailedException extends ApiException {

	ConnectorRestartFailedException(String target, String slot, ConnectorOutcome outcome) {
		super(HttpStatus.BAD_GATEWAY, "connector-restart-failed", "Connector restart failed",
				"Restart of connector '" + outcome.connector() + "' failed: " + outcome.detail());
		with("target", target);
		with("slot", slot);
		with("connector", outcome.connector());
		with("connectStatus", outcome.status());
		with("attempts", outcome.attempts());
	}

}
