package io.slotkeeper.config;

/**
 * Who drops and creates a slot. Anyone but slot-keeper: slot-keeper watches the slot,
 * alerts when it is lost and hands its connector over to the slot its manager makes anew,
 * but never drops or creates it itself.
 */
public enum ManagedBy {

	/**
	 * slot-keeper, as its policy says ({@code on-lost}, {@code on-missing},
	 * {@code on-orphan}) and through the API.
	 */
	SLOT_KEEPER,

	/**
	 * Patroni's permanent slots ({@code slots:} in the DCS configuration): from 4.1.4
	 * Patroni drops and recreates one that is lost, and creates them on a new leader
	 * after a failover.
	 */
	PATRONI,

	/**
	 * CloudNativePG, whose instance manager keeps its own slots (high availability,
	 * declared logical slots).
	 */
	CLOUDNATIVE_PG,

	/**
	 * PostgreSQL 17's slot synchronization on a standby ({@code sync_replication_slots}),
	 * which creates and drops the standby's copy of a failover slot.
	 */
	SLOT_SYNC,

	/**
	 * Another tool or an operator's own automation.
	 */
	OTHER;

	/**
	 * The name the configuration uses, for messages.
	 * @return for example {@code cloudnative-pg}
	 */
	public String configName() {
		return name().toLowerCase(java.util.Locale.ROOT).replace('_', '-');
	}

}
