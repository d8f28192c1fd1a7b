package io.slotkeeper.soak;

import java.time.Duration;
import java.util.EnumSet;
import java.util.List;

/**
 * The soak as the benchmark runs it: every fault kind, a fault every 20–60 s, every invariant asserted once the
 * figures are printed ({@link SoakVerdict#assertInvariants()}).
 */
public final class SoakRuns {

	private SoakRuns() {
	}

	/**
	 * Runs the soak for the given minutes.
	 * @param seed the fault schedule's seed
	 * @param minutes how long faults are injected
	 */
	public static void atLength(long seed, long minutes) {
		SoakVerdict verdict = Soak.run(seed, Duration.ofMinutes(minutes),
				List.copyOf(EnumSet.allOf(FaultSchedule.Kind.class)), 20, 60, System.out);
		verdict.assertInvariants();
	}

}
