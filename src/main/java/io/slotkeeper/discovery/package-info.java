/**
 * Servers configured once: every configured server's slots are read once per poll, each
 * database that holds a logical slot (or that the server lists) joins the fleet as a
 * target, and one whose last logical slot has been gone for the server's
 * {@code retire-after} leaves it, both audited ({@code target.discovered},
 * {@code target.retired}).
 */
@ApplicationModule(allowedDependencies = { "audit", "config", "connect", "fleet", "lanes", "replication", "sessions",
		"settings", "watching" })
package io.slotkeeper.discovery;

import org.springframework.modulith.ApplicationModule;
