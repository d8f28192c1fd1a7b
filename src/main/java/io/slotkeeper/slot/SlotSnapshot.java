package io.slotkeeper.slot;

import java.time.Instant;
import java.util.List;

import io.slotkeeper.target.FailureDescription;

/**
 * One target's slots as of the last poll.
 *
 * @param at when the poll ended
 * @param slots the slots read, empty when the poll failed
 * @param error why the poll failed, {@code null} when it did not
 */
record SlotSnapshot(Instant at, List<SlotView> slots, FailureDescription error) {

	List<String> named(java.util.function.Predicate<SlotView> which) {
		return this.slots.stream().filter(which).map(SlotView::slotName).toList();
	}

}
