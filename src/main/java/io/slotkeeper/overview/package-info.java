/**
 * The whole fleet at a glance for the operator's page: every target and slot from the
 * last heartbeat and poll, problems first, paged; no query to any target.
 */
@ApplicationModule(allowedDependencies = { "config", "connect", "fleet", "heartbeat", "lanes", "lineage", "replication",
		"sessions", "settings", "slot", "watching" })
package io.slotkeeper.overview;

import org.springframework.modulith.ApplicationModule;
