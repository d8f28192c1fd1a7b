package io.slotkeeper.soak;

import java.util.List;

/**
 * The targets' owners over a soak as the server's locks said them ({@link Owners}),
 * against what the instances claimed (their {@code slotkeeper_heartbeat_owner} gauges).
 *
 * @param claimsOfAnothersTarget each time an instance claimed a target for 3 samples
 * running (a heartbeat's lag allowed for) while another instance's session held its owner
 * lock: two owners at once, a frozen holder included
 * @param mostClaimants the most instances claiming one target at one sample
 * @param changes how many times a target's owner lock went from one instance to the other
 * @param longestWithoutMillis the longest a target's owner lock was held by no instance
 */
record Owned(List<String> claimsOfAnothersTarget, int mostClaimants, int changes, long longestWithoutMillis) {
}
