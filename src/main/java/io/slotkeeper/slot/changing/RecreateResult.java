package io.slotkeeper.slot.changing;

import io.slotkeeper.connect.ConnectorOutcome;
import io.slotkeeper.fleet.Lsn;
import io.slotkeeper.slot.reading.ReplicationSlot;
import io.slotkeeper.slot.reading.SlotView;

/**
 * A slot dropped and created again.
 *
 * @param oldSlot the slot as it was before the drop
 * @param newSlot the slot as created
 * @param skipped the WAL its consumer will never see: re-snapshot what changed in it
 * @param connector what the connector restart came to, {@code null} when no connector is configured
 */
public record RecreateResult(SlotView oldSlot, SlotView newSlot, SkippedRange skipped, ConnectorOutcome connector) {

	static RecreateResult of(String node, ReplicationSlot old, ReplicationSlot created) {
		String from = old.logical() ? old.confirmedFlushLsn() : old.restartLsn();
		String to = created.logical() ? created.confirmedFlushLsn() : created.restartLsn();
		return new RecreateResult(SlotView.of(node, old), SlotView.of(node, created),
				new SkippedRange(from, to, Lsn.distance(from, to)), null);
	}

	RecreateResult withConnector(ConnectorOutcome outcome) {
		return new RecreateResult(this.oldSlot, this.newSlot, this.skipped, outcome);
	}

	/**
	 * The LSN range a recreate skips.
	 * @param fromLsn where the consumer was: the old slot's confirmed flush LSN (its restart LSN for a physical slot)
	 * @param toLsn where the new slot starts: its consistent point
	 * @param bytes the range's size, {@code null} when the old position was unknown
	 */
	public record SkippedRange(String fromLsn, String toLsn, Long bytes) {
	}

}
