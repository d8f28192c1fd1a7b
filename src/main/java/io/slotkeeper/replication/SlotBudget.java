package io.slotkeeper.replication;

import java.time.Instant;

/**
 * The WAL budget of a slot whose consumer is gone: how long it has been gone and how long
 * the slot has left before the server invalidates it, at the WAL the server wrote per
 * second over the last hour of polls (an inactive slot keeps all of it).
 *
 * @param inactiveSince since when no consumer reads it: PostgreSQL 17's
 * {@code inactive_since}, before 17 the first poll of this instance that found it
 * inactive
 * @param goneSeconds how long that is
 * @param safeWalSizeBytes WAL the server may still write before the slot is at risk;
 * {@code null} when unlimited
 * @param walBytesPerSecond what the server wrote per second over the last hour of polls;
 * {@code null} before two
 * @param secondsLeft {@code safeWalSizeBytes} at that rate; {@code null} when unlimited
 * or no rate is known yet
 */
public record SlotBudget(Instant inactiveSince, long goneSeconds, Long safeWalSizeBytes, Double walBytesPerSecond,
		Double secondsLeft) {
}
