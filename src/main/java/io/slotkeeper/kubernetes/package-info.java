/**
 * Access to the Kubernetes API server with the pod's service account: what cluster
 * sign-in and Strimzi-managed connectors share.
 */
@ApplicationModule(allowedDependencies = { "support" })
package io.slotkeeper.kubernetes;

import org.springframework.modulith.ApplicationModule;
