package io.slotkeeper.config;

/**
 * What slot-keeper does when a slot named in {@code slots[]} is not on the target's
 * primary, typically after a failover to a server that never had it.
 */
public enum OnMissing {

	/**
	 * Report it (metric, health, alert, listing) and leave the fix to an operator.
	 */
	ALERT,

	/**
	 * Create it again as last seen (logical pgoutput in the target's database when never
	 * seen), restart its connector and report the gap from the last position seen; within
	 * {@code max-recreations-per-hour}.
	 */
	RECREATE

}
