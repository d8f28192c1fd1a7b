package io.slotkeeper.security.cluster;

import java.util.List;

/**
 * A user the Kubernetes API server authenticated.
 *
 * @param username the user name, for example {@code alice} or {@code system:serviceaccount:ci:deployer}
 * @param uid the user's uid, empty when the API server gives none
 * @param groups the user's groups
 */
public record ClusterUser(String username, String uid, List<String> groups) {
}
