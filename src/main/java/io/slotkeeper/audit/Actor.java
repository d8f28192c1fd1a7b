package io.slotkeeper.audit;

import java.util.List;

/**
 * Who asked for a change, beyond a name: set as an authentication's details by sign-ins
 * that know more, so that the audit records it.
 *
 * @param name the caller's name: a static token's name or a cluster user name
 * @param groups the cluster user's groups, empty for a static token
 */
public record Actor(String name, List<String> groups) {
}
