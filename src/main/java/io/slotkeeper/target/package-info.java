/**
 * Connections to target servers: session options, timeouts, server version, and how their errors are described.
 */
package io.slotkeeper.target;
