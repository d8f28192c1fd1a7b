/**
 * The WAL-limit guard of {@code slots[n].on-outage}: a server's
 * {@code max_slot_wal_keep_size} raised while a slot's consumer is gone and its outage
 * budget runs low, and put back once the outage is over; one instance acts per server,
 * under a lock, each raise recorded in the lead target's database ({@code KeepSizeGuard}
 * decides, {@code KeepSizeChanges} changes, {@code KeepSizeRecords} records). The poll
 * calls it; it calls no feature.
 */
@ApplicationModule(
		allowedDependencies = { "audit", "config", "fleet", "problem", "replication", "sessions", "settings" })
package io.slotkeeper.outage;

import org.springframework.modulith.ApplicationModule;
