package io.slotkeeper.soak;

import java.util.ArrayList;
import java.util.List;

/**
 * One pipeline's repairs after the faults played, in order, judged against their bounds
 * when faults chain: a fault that begins while an earlier fault's repair is still under
 * way is not charged for the part of its time to whole again that the earlier fault's
 * bound still allows (the earlier repair, not this fault, holds the rows back). The whole
 * chain is still held to the earlier bound; the raw times are printed as measured.
 */
final class ChainedRepairs {

	private final List<Repair> repairs = new ArrayList<>();

	/**
	 * Judges a fault's time to whole again and records its repair.
	 * @param start when the fault began (ms)
	 * @param end when it ended (ms)
	 * @param each its time to whole again after its end (ms), {@link Long#MAX_VALUE} when
	 * never
	 * @param bound its own bound (ms)
	 * @return the time judged against its bound: {@code each}, less what an earlier
	 * repair under way at its start was still allowed after its end
	 */
	long judge(long start, long end, long each, long bound) {
		long carried = Long.MIN_VALUE;
		for (Repair earlier : this.repairs) {
			if (earlier.wholeAt() > start) {
				carried = Math.max(carried, earlier.deadline());
			}
		}
		this.repairs.add(new Repair((each == Long.MAX_VALUE) ? Long.MAX_VALUE : end + each, end + bound));
		if (each == Long.MAX_VALUE || carried == Long.MIN_VALUE) {
			return each;
		}
		long allowedPastOwn = Math.max(0, (carried - end) - bound);
		return Math.max(0, each - allowedPastOwn);
	}

	// When a repair was whole (Long.MAX_VALUE: never) and until when its bound allowed
	// it.
	private record Repair(long wholeAt, long deadline) {
	}

}
