/**
 * The runtime model of the fleet: every configured target with its nodes (primary and
 * replicas), each node's connections, server version and the identity of the server that
 * answered last, and the target's ownership and beat log. Also what every feature needs
 * to talk to a node: sessions with timeouts, advisory locks, LSNs, quoted identifiers and
 * the mapping of SQLStates to problems.
 */
@ApplicationModule(allowedDependencies = { "config", "lineage", "problem", "sessions", "support" })
package io.slotkeeper.fleet;

import org.springframework.modulith.ApplicationModule;
