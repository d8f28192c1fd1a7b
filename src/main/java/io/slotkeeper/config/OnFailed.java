package io.slotkeeper.config;

/**
 * What slot-keeper does when a slot's connector, or one of its tasks, is FAILED while its
 * slot is healthy.
 */
public enum OnFailed {

	/**
	 * Report it (health, the page, metrics) and leave the restart to an operator or the
	 * platform.
	 */
	ALERT,

	/**
	 * Restart its failed tasks once they stayed FAILED a few seconds, unless its user
	 * stopped or paused it; at most {@code max-restarts-per-hour} times.
	 */
	RESTART

}
