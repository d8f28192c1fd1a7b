package io.slotkeeper.security.cluster;

import java.util.List;
import java.util.Map;

/**
 * A user the Kubernetes API server authenticated.
 *
 * @param username the user name, for example {@code alice} or
 * {@code system:serviceaccount:ci:deployer}
 * @param uid the user's uid, empty when the API server gives none
 * @param groups the user's groups
 * @param extra what else the API server knows of the user, passed on unchanged to every
 * access review: OpenShift puts a token's OAuth scopes there
 * ({@code scopes.authorization.openshift.io}), and its authorizer confines a scoped token
 * to them only when they are there
 */
public record ClusterUser(String username, String uid, List<String> groups, Map<String, List<String>> extra) {
}
