package io.slotkeeper.watching;

import java.util.Map;
import java.util.Optional;

import io.slotkeeper.settings.RaisedLimit;

/**
 * What the feature acting on a target's slots says of it in the {@code slots} health and
 * on the page: why healing stopped, where heal attempts are counted, a WAL-limit raise
 * that stands. The healing module provides it; health and the page ask it directly, not
 * through the poller. Also the gap journals kept while consumers are away.
 */
public interface SlotHealthReadOuts {

	/**
	 * Why healing stopped for slots of a target.
	 * @param target the target's name
	 * @return the reasons by slot
	 */
	Map<String, String> healingStopped(String target);

	/**
	 * Where a target's heal attempts are counted, when not in its database.
	 * @param target the target's name
	 * @return why in memory, {@code null} when in the database
	 */
	String healingBudgetInMemoryBecause(String target);

	/**
	 * The raise of the target's server's {@code max_slot_wal_keep_size} that stands, as
	 * its last poll showed it.
	 * @param target the target's name
	 * @return the raise, empty when none stands, the target is not its server's lead, or
	 * another instance acts
	 */
	Optional<RaisedLimit> raisedLimit(String target);

	/**
	 * The gap journals kept of a target's slots whose consumers are away, and why a slot
	 * that should have one has none.
	 * @param target the target's name
	 * @return by slot, in words (counts and positions, never a key)
	 */
	Map<String, String> gapJournals(String target);

	/**
	 * What became of the last signals of each slot's gap to slot-keeper's Debezium
	 * extension (deletes, truncates, outbox events), as its acknowledgements tell.
	 * @param target the target's name
	 * @return by slot, in words (counts only, never a key or a value)
	 */
	Map<String, String> gapDeliveries(String target);

}
