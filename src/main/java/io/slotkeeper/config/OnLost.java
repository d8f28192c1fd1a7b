package io.slotkeeper.config;

/**
 * What slot-keeper does when it finds a slot invalidated (lost).
 */
public enum OnLost {

	/**
	 * Report it (metrics, health, alerts) and leave the fix to an operator.
	 */
	ALERT,

	/**
	 * Recreate it with the same options, restart its connector and report the skipped
	 * range; at most {@code max-recreations-per-hour} times.
	 */
	RECREATE

}
