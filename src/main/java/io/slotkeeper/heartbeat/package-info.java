/**
 * The heartbeat engine: one schedule per target, the statement each mode writes, status, health, metrics and the
 * targets API.
 */
package io.slotkeeper.heartbeat;
