/**
 * The settings audit: what each target's server is configured to do to its slots (how
 * much WAL they may keep, how long they may sit idle, how a dead consumer is noticed, how
 * much room is left for slots and senders), read with every poll and judged in words
 * against the WAL the server writes and the consumer outage the target must survive.
 */
@ApplicationModule(allowedDependencies = { "fleet", "problem" })
package io.slotkeeper.settings;

import org.springframework.modulith.ApplicationModule;
