/**
 * The record of a slot's life, kept in its target's database: its lineage (every epoch,
 * why it was made anew, what its gap held, {@code SlotLineages}), the tables' write
 * counters the heartbeat samples ({@code TableCounters}, {@code TableWrites}) and the
 * deletes a gap held as they tell them ({@code GapDeletes}). The heartbeat writes it; the
 * heal, the handover and the re-snapshot read it.
 */
@ApplicationModule(allowedDependencies = { "config", "sessions" })
package io.slotkeeper.lineage;

import org.springframework.modulith.ApplicationModule;
