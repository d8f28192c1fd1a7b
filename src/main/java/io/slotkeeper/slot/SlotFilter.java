package io.slotkeeper.slot;

/**
 * The listing's optional filters; a {@code null} field matches everything.
 *
 * @param database only slots of this database
 * @param walStatus only slots with this {@code wal_status}
 * @param active only active (or only inactive) slots
 */
record SlotFilter(String database, String walStatus, Boolean active) {

	boolean matches(SlotView slot) {
		return (this.database == null || this.database.equals(slot.database()))
				&& (this.walStatus == null || this.walStatus.equals(slot.walStatus()))
				&& (this.active == null || this.active.equals(slot.active()));
	}

}
