/**
 * slot-keeper: WAL heartbeats, slot administration, health and metrics for PostgreSQL CDC
 * pipelines.
 */
package io.slotkeeper;
