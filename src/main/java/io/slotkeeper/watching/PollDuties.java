package io.slotkeeper.watching;

import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

import io.slotkeeper.fleet.Target;
import io.slotkeeper.replication.ReplicationSlot;
import io.slotkeeper.replication.SlotPoll;

/**
 * What follows each poll of a target beyond reading it: healing, the connectors'
 * handovers and restarts, the WAL-limit guard, the failover checks. The healing module
 * provides it; the poller calls it without knowing what it does, so that watching never
 * depends on the features that act on what it sees.
 */
public interface PollDuties {

	/**
	 * The duties of a target that joined the fleet.
	 * @param target the target
	 * @param fleet every target now, for what a whole server weighs
	 * @param watch where the polls' conclusions are kept
	 * @return its duties
	 */
	TargetDuties of(Target target, Supplier<List<Target>> fleet, SlotWatch watch);

	/**
	 * What follows the polls of one target.
	 */
	interface TargetDuties {

		/**
		 * Hands a poll's follow-ups over.
		 * @param poll what the poll read of the target
		 * @param serverSlots every slot of the target's server, as the poll read them
		 * @param dutyLanes where they run
		 * @param readAgain reads the slots again, after a heal
		 */
		void follow(SlotPoll poll, List<ReplicationSlot> serverSlots, DutyLanes dutyLanes, Runnable readAgain);

		/**
		 * The slots whose connector's task failed on a stored offset older than the slot,
		 * as last found.
		 * @return by slot, the connector's state in a few words
		 */
		Map<String, String> staleOffsets();

	}

}
