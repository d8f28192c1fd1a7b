/**
 * Replication slots: listing by server version, the runbook's changes (create, drop, recreate) with their safety
 * rules and dry runs, the connector restart, slot metrics and health.
 */
package io.slotkeeper.slot;
