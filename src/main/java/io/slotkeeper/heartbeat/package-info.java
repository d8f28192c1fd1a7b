/**
 * The heartbeat engine: one schedule per target, the statement each mode writes, status,
 * health, metrics and the targets API.
 */
@ApplicationModule(
		allowedDependencies = { "audit", "config", "fleet", "lanes", "lineage", "problem", "sessions", "support" })
package io.slotkeeper.heartbeat;

import org.springframework.modulith.ApplicationModule;
