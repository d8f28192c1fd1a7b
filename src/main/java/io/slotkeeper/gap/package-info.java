/**
 * The exact gap: what changed while a slot's consumer was away, read from a copy of its
 * slot before the slot could be lost. A copy ({@code SlotCopies}) is decoded with
 * pgoutput protocol 1 ({@code PgOutputReader}) into a journal ({@code GapJournal}) that
 * keeps, per captured table, each key's net change and every truncate, and says which
 * tables it cannot tell key by key. It calls no feature.
 */
@ApplicationModule(allowedDependencies = { "config", "fleet", "replication", "sessions" })
package io.slotkeeper.gap;

import org.springframework.modulith.ApplicationModule;
