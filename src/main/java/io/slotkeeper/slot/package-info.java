/**
 * Replication slots through the API: the controller, its request and answer types, and the reads it serves. The
 * work is split by activity: {@code changing} (rules, steps, service) and {@code watching} (poller, insights, gauges,
 * healer, health); slots as a node shows them are the {@code replication} module's.
 */
package io.slotkeeper.slot;
