/**
 * Sign-in with the caller's own Kubernetes / OpenShift token: {@code TokenReview} for who
 * it is, {@code SubjectAccessReview}s for what it may do, both made with the pod's
 * service account, answers cached briefly.
 */
package io.slotkeeper.security.cluster;
