/**
 * Connector handovers after a slot was made anew: the handovers still to be completed, kept in the target's database
 * so that another instance finishes them ({@code PendingHandovers}), their completion once the slot is read again
 * with the position the old slot released ({@code HandoverCompletions}, {@code ReleasedPosition}), what a completed
 * one leaves for the audit ({@code CompletedHandover}), and the restart of a connector asked through the API
 * ({@code ConnectorRestarts}). It reaches connectors through {@code connect} and targets through {@code fleet}; the
 * runbook ({@code slot}) and healing call it, and it calls neither.
 */
package io.slotkeeper.handover;
