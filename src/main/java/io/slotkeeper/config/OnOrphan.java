package io.slotkeeper.config;

/**
 * What slot-keeper does with an orphan: a replica's slot that has the name of a failover
 * slot on the primary but is not its synchronized copy (typically left on an old primary
 * that rejoined as a standby), which stops the standby from synchronizing that slot.
 */
public enum OnOrphan {

	/**
	 * Report it (listing, metric, failover health, alert) and leave the drop to an
	 * operator.
	 */
	ALERT,

	/**
	 * Drop it on the replica, so that synchronization resumes; only when no session holds
	 * it, audited.
	 */
	DROP

}
