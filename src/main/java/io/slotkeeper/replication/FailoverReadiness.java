package io.slotkeeper.replication;

/**
 * Whether a logical slot would survive a failover to the target's replicas (PostgreSQL 17
 * failover slots).
 *
 * @param failoverReady {@code true} when every replica has a synchronized, permanent,
 * valid copy close to the primary's; {@code false} when one does not; {@code null} when
 * it does not apply (no replicas, a physical slot, or a server before 17)
 * @param failoverReason why not, prefixed by the replica's name, or why it does not
 * apply; {@code null} when ready
 */
public record FailoverReadiness(Boolean failoverReady, String failoverReason) {

	/**
	 * Nothing to say: the target has no replicas, or the slot is physical.
	 */
	public static final FailoverReadiness NONE = new FailoverReadiness(null, null);

}
