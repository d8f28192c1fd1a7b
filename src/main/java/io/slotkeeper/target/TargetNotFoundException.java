package io.slotkeeper.target;

import org.springframework.http.HttpStatus;

import io.slotkeeper.api.ApiException;

/**
 * No target has the name asked for.
 */
public class TargetNotFoundException extends ApiException {

	public TargetNotFoundException(String name) {
		super(HttpStatus.NOT_FOUND, "target-not-found", "Unknown target",
				"No target named '" + name + "' is configured in slotkeeper.targets.");
		with("target", name);
	}

}
