package io.slotkeeper.soak;

import java.time.Duration;
import java.util.EnumSet;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The soak as the benchmark runs it: every fault kind, a fault every 20–60 s, every invariant asserted once the
 * figures are printed.
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
		assertThat(verdict.missing()).as("rows missing").isZero();
		assertThat(verdict.stale()).as("stale keys").isZero();
		assertThat(verdict.mostOwners()).as("owners at once").isLessThanOrEqualTo(1);
		assertThat(verdict.userStopsBroken()).as("user stops undone").isZero();
		assertThat(verdict.connectorState()).isEqualTo("RUNNING");
	}

}
