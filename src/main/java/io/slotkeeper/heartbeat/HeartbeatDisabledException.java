package io.slotkeeper.heartbeat;

import org.springframework.http.HttpStatus;

import io.slotkeeper.api.ApiException;

/**
 * A heartbeat was asked for on a target whose heartbeat is disabled in configuration.
 */
public class HeartbeatDisabledException extends ApiException {

	HeartbeatDisabledException(String name) {
		super(HttpStatus.CONFLICT, "heartbeat-disabled", "Heartbeat disabled",
				"Heartbeats are disabled for target '" + name + "' (slotkeeper.targets[].heartbeat.enabled=false).");
		with("target", name);
	}

}
