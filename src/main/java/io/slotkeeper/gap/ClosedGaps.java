package io.slotkeeper.gap;

import java.util.Optional;

import io.slotkeeper.fleet.Target;

/**
 * The gaps recreates closed, kept beyond the instance that closed them until their
 * re-snapshot is sent: the owner that completes a handover another instance began (which
 * ended before it was done) reads exactly the gap that instance closed.
 */
public interface ClosedGaps {

	/**
	 * Where no gap is kept beyond the instance.
	 */
	ClosedGaps NONE = new ClosedGaps() {

		@Override
		public Optional<Gap> kept(Target target, String slot, long newStart) {
			return Optional.empty();
		}

		@Override
		public void forget(Target target, String slot) {
		}

	};

	/**
	 * The gap the recreate that made the slot start at {@code newStart} closed.
	 * @param target the slot's target
	 * @param slot the slot made anew
	 * @param newStart where the new slot starts: a gap another recreate closed is never
	 * taken for it
	 * @return the gap, empty when none is kept (or it cannot be read, said in the log)
	 */
	Optional<Gap> kept(Target target, String slot, long newStart);

	/**
	 * Forgets the slot's closed gap, its re-snapshot sent or no longer to be sent.
	 * @param target the slot's target
	 * @param slot the slot
	 */
	void forget(Target target, String slot);

}
