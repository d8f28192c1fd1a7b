package io.slotkeeper.heartbeat;

import org.springframework.http.HttpStatus;

import io.slotkeeper.api.ApiException;

/**
 * A heartbeat already running on the target did not end in time for the one asked for.
 */
public class HeartbeatBusyException extends ApiException {

	HeartbeatBusyException(String name) {
		super(HttpStatus.SERVICE_UNAVAILABLE, "heartbeat-busy", "Heartbeat busy",
				"A heartbeat to target '" + name + "' is still running; try again shortly.");
		with("target", name);
	}

}
