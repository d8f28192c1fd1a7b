/**
 * The connector's handover to a slot made anew, in one place: {@code Handover} and its
 * phases ({@code HandoverPhase}: planned; what reading the connector before the change
 * found; completed), planned and completed by {@code ConnectorHandovers} (offsets aligned
 * or reset, the connector resumed or left as its user chose), its outcome
 * {@code ConnectorHandover} and each connector's last ({@code HandoverLog}); the
 * handovers still to be completed, kept in the target's database so that another instance
 * finishes them ({@code PendingHandovers}), their completion once the slot is read again
 * with the position the old slot released ({@code HandoverCompletions},
 * {@code ReleasedPosition}), what a completed one leaves for the audit
 * ({@code CompletedHandover}), and the restart of a connector asked through the API
 * ({@code ConnectorRestarts}). It reaches connectors through {@code connect} and targets
 * through {@code fleet}; the runbook ({@code slot}) and healing call it, and it calls
 * neither.
 */
@ApplicationModule(allowedDependencies = { "config", "connect", "fleet", "problem", "resnapshot", "sessions" })
package io.slotkeeper.handover;

import org.springframework.modulith.ApplicationModule;
