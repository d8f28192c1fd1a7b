package io.slotkeeper.heartbeat;

import java.time.Instant;

/**
 * A heartbeat written on request.
 *
 * @param target the target's name
 * @param lsn the LSN written
 * @param durationMillis how long it took, connecting included, in milliseconds
 * @param at when it was written
 */
public record HeartbeatResult(String target, String lsn, double durationMillis, Instant at) {

}
