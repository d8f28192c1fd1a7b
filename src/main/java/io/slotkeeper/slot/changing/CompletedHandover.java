package io.slotkeeper.slot.changing;

import java.time.Instant;

import io.slotkeeper.connect.ConnectorHandover;

/**
 * A connector handover completed after it waited for Kafka Connect to answer.
 *
 * @param slot the recreated slot
 * @param position the position the connector's offsets were set to, {@code null} when the slot had none
 * @param recreatedAt when the slot was recreated and the handover kept
 * @param connector what became of the connector
 * @param resnapshot the re-snapshot sent, or why not; {@code null} when the slot asks for none
 */
public record CompletedHandover(String slot, Long position, Instant recreatedAt, ConnectorHandover connector,
		Resnapshots.Resnapshot resnapshot) {

}
