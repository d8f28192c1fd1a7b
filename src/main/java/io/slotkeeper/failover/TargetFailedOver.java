package io.slotkeeper.failover;

/**
 * Another server took over as a target's primary, as this instance noticed: its slots are
 * to be read again at once.
 *
 * @param target the target's name
 */
public record TargetFailedOver(String target) {
}
