package io.slotkeeper.heartbeat;

import org.springframework.http.HttpStatus;

import io.slotkeeper.api.ApiException;
import io.slotkeeper.target.FailureDescription;

/**
 * A heartbeat asked for through the API failed: the target is down, refuses, or did not answer in time.
 */
public class TargetUnavailableException extends ApiException {

	TargetUnavailableException(String name, FailureDescription failure) {
		super(HttpStatus.SERVICE_UNAVAILABLE, "target-unavailable", "Target unavailable",
				"The heartbeat to target '" + name + "' failed: " + failure.message());
		with("target", name);
		with("sqlState", failure.sqlState());
	}

}
