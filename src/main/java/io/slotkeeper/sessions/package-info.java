/**
 * What every feature needs to talk to a node of a target: the node itself ({@code Node}:
 * connection settings, its pool, the server version and identity that answered last),
 * sessions with timeouts and options ({@code NodeConnector}, {@code NodePool}),
 * replication connections, advisory locks, this process's identity ({@code Instance}),
 * LSNs, quoted identifiers, the tables slot-keeper owns in a database
 * ({@code OwnTables}), SQLState → problem ({@code TargetProblems}) and failures in words
 * ({@code FailureDescription}, {@code TlsFailures}). It knows nothing of targets, fleets
 * or slots.
 */
@ApplicationModule(allowedDependencies = { "config", "problem", "support" })
package io.slotkeeper.sessions;

import org.springframework.modulith.ApplicationModule;
