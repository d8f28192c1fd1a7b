/**
 * Watching slots: every target's primary polled on its own schedule, what each poll
 * concludes (heartbeat acknowledgement, diagnosis, time to loss, connectors' states,
 * sightings of configured slots), the slot gauges and the {@code slots} health. What
 * follows a poll (healing, handovers, the WAL-limit guard) is handed to the
 * {@code PollDuties} that the healing module provides: watching calls no feature that
 * acts on what it sees.
 */
@ApplicationModule(allowedDependencies = { "config", "connect", "failover", "fleet", "handover", "lanes", "lineage",
		"replication", "sessions", "settings", "support" })
package io.slotkeeper.watching;

import org.springframework.modulith.ApplicationModule;
