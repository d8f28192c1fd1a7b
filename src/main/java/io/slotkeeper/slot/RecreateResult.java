package io.slotkeeper.slot;

import io.slotkeeper.connect.ConnectorOutcome;

/**
 * A slot dropped and created again.
 *
 * @param oldSlot the slot as it was before the drop
 * @param newSlot the slot as created
 * @param skipped the WAL its consumer will never see: re-snapshot what changed in it
 * @param connector what the connector restart came to, {@code null} when no connector is configured
 */
public record RecreateResult(SlotView oldSlot, SlotView newSlot, SkippedRange skipped, ConnectorOutcome connector) {

	/**
	 * The LSN range a recreate skips.
	 * @param fromLsn where the consumer was: the old slot's confirmed flush LSN (its restart LSN for a physical slot)
	 * @param toLsn where the new slot starts: its consistent point
	 * @param bytes the range's size, {@code null} when the old position was unknown
	 */
	public record SkippedRange(String fromLsn, String toLsn, Long bytes) {
	}

}
