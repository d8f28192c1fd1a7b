package io.slotkeeper.slot.changing;

import java.util.List;
import java.util.Map;

import io.slotkeeper.fleet.Target;
import io.slotkeeper.handover.CompletedHandover;
import io.slotkeeper.handover.HandoverCompletions;
import io.slotkeeper.handover.PendingHandovers;
import io.slotkeeper.lineage.GapDeletes;
import io.slotkeeper.resnapshot.Resnapshots;

/**
 * What follows a recreate once its call has returned, run by the owner's polls: the
 * connector handovers that waited for Kafka Connect, the re-snapshot signals rechecked,
 * the gap deletes counted again.
 */
public final class SlotFollowUps {

	private final RecreateFollowUp followUp;

	private final Resnapshots resnapshots;

	private final PendingHandovers pending;

	private final HandoverCompletions completions;

	SlotFollowUps(RecreateFollowUp followUp, Resnapshots resnapshots, PendingHandovers pending,
			HandoverCompletions completions) {
		this.followUp = followUp;
		this.resnapshots = resnapshots;
		this.pending = pending;
		this.completions = completions;
	}

	/**
	 * Keeps a handover of a slot's connector to its slot's confirmed position, for the
	 * next {@link #completePendingHandovers}: for a connector whose task failed on a
	 * stored offset older than its slot.
	 * @param target the target
	 * @param slot the slot
	 * @param connector the connector's name
	 * @param position the slot's confirmed position
	 * @param reason why, for the audit
	 */
	public void keepHandover(Target target, String slot, String connector, long position, String reason) {
		this.pending.keep(target, slot, connector, position, reason, null);
	}

	/**
	 * Completes the connector handovers of the target's recreates that waited for Kafka
	 * Connect to answer.
	 * @param target the target
	 * @return those completed now; empty when none waits, Kafka Connect still does not
	 * answer, or another instance or a change holds the target's change lock
	 */
	public List<CompletedHandover> completePendingHandovers(Target target) {
		return this.completions.complete(target);
	}

	/**
	 * Exports the gap counts of the target's slots at 0 before the first recreate.
	 * @param target the target
	 */
	public void primeGapCounts(Target target) {
		this.followUp.gapDeletes().prime(target);
	}

	/**
	 * Whether a count of a recreate's gap deletes waits to be taken again for the target.
	 * @param target the target
	 * @return whether one waits
	 */
	public boolean gapDeletesWaiting(Target target) {
		return this.followUp.gapDeletes().waiting(target);
	}

	/**
	 * Counts again the gap deletes of the target's recreates whose recheck is due.
	 * @param target the target
	 * @return the counts that changed, by slot
	 */
	public Map<String, GapDeletes> recountGapDeletes(Target target) {
		return this.followUp.gapDeletes().recheck(target);
	}

	/**
	 * The re-snapshot signals of slots.
	 * @return the signals
	 */
	public Resnapshots resnapshots() {
		return this.resnapshots;
	}

}
