/**
 * The whole fleet at a glance for the operator's page: every target and slot from the last heartbeat and poll,
 * problems first, paged; no query to any target.
 */
package io.slotkeeper.overview;
