package io.slotkeeper.soak;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * How the soak judges a fault that begins while an earlier one is still being repaired:
 * the time the earlier bound still allows is not charged to it, and nothing else is
 * forgiven.
 */
class ChainedRepairsTests {

	private final ChainedRepairs repairs = new ChainedRepairs();

	@Test
	void aFaultBegunWhileAnEarlierRepairIsUnderWayIsChargedOnlyPastTheEarlierBound() {
		// A primary's restart (bound 180 s) ends at 6 s and is whole at 163 s; an API
		// fault (bound 15 s) from 43 s to 59 s is whole 95 s after its end, at 154 s.
		assertThat(this.repairs.judge(0, 6_000, 157_000, 180_000)).isEqualTo(157_000);
		long judged = this.repairs.judge(43_000, 59_000, 95_000, 15_000);
		// The restart's bound allowed until 186 s, 127 s past the API fault's end.
		assertThat(judged).isZero();
	}

	@Test
	void aFaultWhoseRepairOutlastsTheEarlierBoundIsChargedTheRest() {
		this.repairs.judge(0, 6_000, 50_000, 60_000);
		// The earlier bound allowed until 66 s: 16 s past this fault's end at 50 s, 1 s
		// past its own 15 s bound; 40 s measured, 39 s judged.
		assertThat(this.repairs.judge(30_000, 50_000, 40_000, 15_000)).isEqualTo(39_000);
	}

	@Test
	void aFaultAfterTheEarlierRepairWasWholeIsJudgedAsMeasured() {
		this.repairs.judge(0, 6_000, 10_000, 180_000);
		assertThat(this.repairs.judge(43_000, 59_000, 95_000, 15_000)).isEqualTo(95_000);
	}

	@Test
	void aFaultNeverWholeStaysNeverWhole() {
		this.repairs.judge(0, 6_000, 157_000, 180_000);
		assertThat(this.repairs.judge(43_000, 59_000, Long.MAX_VALUE, 15_000)).isEqualTo(Long.MAX_VALUE);
	}

	@Test
	void anEarlierRepairNeverWholeCarriesOnlyItsBound() {
		this.repairs.judge(0, 6_000, Long.MAX_VALUE, 60_000);
		assertThat(this.repairs.judge(30_000, 50_000, 40_000, 15_000)).isEqualTo(39_000);
	}

}
