package io.slotkeeper.replication;

/**
 * The listing's optional filters; a {@code null} field matches everything.
 *
 * @param database only slots of this database
 * @param walStatus only slots with this {@code wal_status}
 * @param active only active (or only inactive) slots
 */
public record SlotFilter(String database, String walStatus, Boolean active) {

	/**
	 * Whether a slot passes the filters.
	 * @param slot the slot
	 * @return whether it matches every filter set
	 */
	public boolean matches(ReplicationSlot slot) {
		return (this.database == null || this.database.equals(slot.database()))
				&& (this.walStatus == null || this.walStatus.equals(slot.walStatus()))
				&& (this.active == null || this.active.equals(slot.active()));
	}

}
