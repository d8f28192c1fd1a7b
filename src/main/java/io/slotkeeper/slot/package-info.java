/**
 * Replication slots through the API: the controller, its request and answer types, and the reads it serves. The
 * work is split by activity: {@code reading} (listing, views, problems), {@code changing} (rules, steps, service)
 * and {@code watching} (poller, insights, gauges, healer, health).
 */
package io.slotkeeper.slot;
