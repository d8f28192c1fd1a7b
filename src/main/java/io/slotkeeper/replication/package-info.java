/**
 * Replication slots as a node shows them: the version-aware listing of
 * {@code pg_replication_slots} and its rows, the view the API shows, the listing's
 * filters, what is seen of a slot between polls, its WAL budget and insights, the
 * problems a read or a change names, and the slot meters' tags. Below every feature that
 * reads or changes slots; it calls none of them.
 */
@ApplicationModule(allowedDependencies = { "connect", "lineage", "problem", "sessions", "settings" })
package io.slotkeeper.replication;

import org.springframework.modulith.ApplicationModule;
