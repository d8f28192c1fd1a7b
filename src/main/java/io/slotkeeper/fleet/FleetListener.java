package io.slotkeeper.fleet;

/**
 * What a feature does when a target joins or leaves the fleet: configured targets join
 * once at start, a server's databases join as they are found and leave when retired.
 */
public interface FleetListener {

	/**
	 * A target joined: start what the feature does for it.
	 * @param target the target
	 */
	void joined(Target target);

	/**
	 * A target left: stop what the feature does for it and forget it. Listeners are told
	 * in the reverse order of their joining, so that one may still find what an earlier
	 * one keeps of the target.
	 * @param target the target
	 */
	default void left(Target target) {
	}

}
