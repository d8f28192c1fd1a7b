package io.slotkeeper.watching;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.function.Predicate;

import io.slotkeeper.replication.ReplicationSlot;
import io.slotkeeper.replication.SlotView;
import io.slotkeeper.sessions.FailureDescription;

/**
 * One target's slots as of the last poll.
 *
 * @param at when the poll ended
 * @param slots the slots read with what the poll concluded; after a failed poll, those of
 * the last good one
 * @param error why the poll failed, {@code null} when it did not
 * @param lastGoodAt when the last good poll ended, {@code null} before one
 */
public record SlotSnapshot(Instant at, List<SlotView> slots, FailureDescription error, Instant lastGoodAt) {

	/**
	 * Whether no poll ended for more than three intervals and a second: the target is
	 * slow to answer.
	 * @param pollInterval the target's {@code slots-poll-interval}
	 * @param now the time to judge by
	 * @return whether the snapshot is stale
	 */
	public boolean stale(Duration pollInterval, Instant now) {
		return Duration.between(this.at, now).compareTo(pollInterval.multipliedBy(3).plusSeconds(1)) > 0;
	}

	/**
	 * The names of the slots that match.
	 * @param which the condition
	 * @return the names, in the listing's order
	 */
	public List<String> named(Predicate<ReplicationSlot> which) {
		return this.slots.stream().map(SlotView::slot).filter(which).map(ReplicationSlot::slotName).toList();
	}

}
