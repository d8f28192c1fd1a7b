/**
 * Watching slots: every target's primary polled on its own schedule, what each poll concludes (heartbeat
 * acknowledgement, diagnosis, time to loss), the slot gauges, self-healing of lost slots and the {@code slots}
 * health.
 * <p>
 * A named interface of the {@code slot} module (the poller's conclusions (snapshots, connector states, retained history): read by discovery and the overview).
 */
@NamedInterface("watching")
package io.slotkeeper.slot.watching;

import org.springframework.modulith.NamedInterface;
