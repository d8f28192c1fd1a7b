/**
 * Kubernetes Events: what slot-keeper did and found, told where an OpenShift user looks
 * ({@code oc describe kafkaconnector}, {@code oc get events}), aggregated on repeats and
 * never in a repair's way.
 */
@ApplicationModule(allowedDependencies = { "audit", "config", "fleet", "kubernetes", "support" })
package io.slotkeeper.events;

import org.springframework.modulith.ApplicationModule;
