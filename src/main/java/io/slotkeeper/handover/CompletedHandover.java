package io.slotkeeper.handover;

import java.time.Instant;

import io.slotkeeper.resnapshot.Resnapshot;

/**
 * A connector handover ended: right after its recreate, or at a slot poll after it was
 * kept.
 *
 * @param slot the slot
 * @param position the position the connector's offsets were set to, {@code null} when the
 * slot had none
 * @param keptAt when the handover was kept, {@code null} when it ran right after its
 * recreate
 * @param reason why it ran, or was kept
 * @param connector what became of the connector
 * @param resnapshot the re-snapshot sent, or why not; {@code null} when the slot asks for
 * none
 */
public record CompletedHandover(String slot, Long position, Instant keptAt, String reason, ConnectorHandover connector,
		Resnapshot resnapshot) {

}
