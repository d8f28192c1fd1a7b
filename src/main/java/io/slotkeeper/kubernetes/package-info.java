/**
 * Access to the Kubernetes API server with the pod's service account: what cluster sign-in and Strimzi-managed
 * connectors share.
 */
package io.slotkeeper.kubernetes;
