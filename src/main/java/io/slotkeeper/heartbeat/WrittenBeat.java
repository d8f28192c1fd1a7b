package io.slotkeeper.heartbeat;

import java.time.Instant;

/**
 * A heartbeat written by this instance.
 *
 * @param lsn the LSN it wrote
 * @param at when it was written
 */
public record WrittenBeat(String lsn, Instant at) {

}
