package io.slotkeeper.soak;

import java.time.Duration;
import java.util.EnumSet;
import java.util.List;

/**
 * The soak as the benchmark runs it: every fault kind and, in 30% of the draws, an
 * overlap of two, a fault every 20–60 s, every invariant asserted once the figures are
 * printed ({@link SoakVerdict#assertInvariants()}).
 */
public final class SoakRuns {

	/**
	 * Seeds that found a defect, each kept green at the length it found it at: replay one
	 * with {@code ./mvnw test -Pbench -Dtest=SoakBench#keptGreen -Dsoak.seed=<seed>}.
	 */
	public static final List<KeptSeed> KEPT_GREEN = List.of(
			new KeptSeed(20261209L, 60, 0, "a writer stuck behind the forwarder after a reset (a seven-minute tail)"),
			new KeptSeed(20261212L, 60, 0, "a put-back counted before it happened"),
			new KeptSeed(20261213L, 60, 0, "three hour-long seeds in a row at one commit"),
			new KeptSeed(5064L, 12, 0, "a WAL-limit raise left in force: the put-back waited for a slot nobody reads"));

	/**
	 * The share of a soak's draws that are overlaps ({@link FaultSchedule.Overlap}).
	 */
	public static final int OVERLAP_PERCENT = 30;

	private SoakRuns() {
	}

	/**
	 * A seed the soak keeps green.
	 *
	 * @param seed the seed
	 * @param minutes the length it is played at
	 * @param overlapPercent the share of overlaps it was found with (0: before overlaps
	 * were played, so that it replays the faults it found)
	 * @param found what it found
	 */
	public record KeptSeed(long seed, long minutes, int overlapPercent, String found) {
	}

	/**
	 * Plays a kept seed at its length.
	 * @param seed the seed, one of {@link #KEPT_GREEN}
	 */
	public static void kept(long seed) {
		KeptSeed kept = KEPT_GREEN.stream()
			.filter((each) -> each.seed() == seed)
			.findFirst()
			.orElseThrow(() -> new IllegalArgumentException("seed " + seed + " is not one of the kept seeds "
					+ KEPT_GREEN.stream().map(KeptSeed::seed).toList()));
		play(kept.seed(), kept.minutes(), kept.overlapPercent());
	}

	/**
	 * Runs the soak for the given minutes.
	 * @param seed the fault schedule's seed
	 * @param minutes how long faults are injected
	 */
	public static void atLength(long seed, long minutes) {
		play(seed, minutes, OVERLAP_PERCENT);
	}

	private static void play(long seed, long minutes, int overlapPercent) {
		List<FaultSchedule.Kind> kinds = List.copyOf(EnumSet.allOf(FaultSchedule.Kind.class));
		System.out.printf("soak: seed %d, %d min of faults (%s, overlaps %d%%), a fault every 20-60 s%n", seed, minutes,
				kinds, overlapPercent);
		SoakVerdict verdict = Soak.run(seed, new FaultSchedule(seed, kinds, overlapPercent, 20, 60),
				Duration.ofMinutes(minutes), System.out);
		verdict.assertInvariants();
	}

}
