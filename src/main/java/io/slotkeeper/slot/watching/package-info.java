/**
 * Watching slots: every target's primary polled on its own schedule, what each poll concludes (heartbeat
 * acknowledgement, diagnosis, time to loss), the slot gauges, self-healing of lost slots and the {@code slots}
 * health.
 */
package io.slotkeeper.slot.watching;
