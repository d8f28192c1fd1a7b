package io.slotkeeper.soak;

import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Objects;

import io.slotkeeper.soak.FaultSchedule.Fault;
import io.slotkeeper.soak.FaultSchedule.Kind;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The soak's schedule: a seed replays its faults exactly, overlaps are drawn besides the
 * single faults without changing them (a seed kept green from before overlaps plays what
 * it found), and every overlap is drawn in an hour's worth.
 */
class FaultScheduleTests {

	private static final List<Kind> ALL = List.copyOf(EnumSet.allOf(Kind.class));

	@Test
	void aSeedDrawsTheSameFaultsEveryTime() {
		assertThat(draw(20261210L, 30, 80)).isEqualTo(draw(20261210L, 30, 80));
		assertThat(draw(20261210L, 30, 80)).isNotEqualTo(draw(20261211L, 30, 80));
	}

	@Test
	void overlapsComeBetweenTheSingleFaultsTheSeedDrewWithout() {
		List<Fault> with = draw(5064L, 30, 200);
		List<Fault> without = draw(5064L, 0, 200);

		assertThat(without).allMatch((fault) -> fault.overlap() == null);
		List<String> singles = with.stream()
			.filter((fault) -> fault.overlap() == null)
			.map(FaultScheduleTests::drawn)
			.toList();
		assertThat(singles)
			.isEqualTo(without.stream().map(FaultScheduleTests::drawn).toList().subList(0, singles.size()));
		assertThat(with.stream().filter((fault) -> fault.overlap() != null).count()).isBetween(40L, 80L);
	}

	@Test
	void anHoursDrawsHoldEveryOverlap() {
		// An hour of faults every 20-60 s and the overlaps' own length: about 60 draws.
		assertThat(draw(20261214L, 30, 60).stream().map(Fault::overlap).filter(Objects::nonNull).distinct())
			.containsExactlyInAnyOrder(FaultSchedule.Overlap.values());
	}

	private static List<Fault> draw(long seed, int overlapPercent, int count) {
		FaultSchedule schedule = new FaultSchedule(seed, ALL, overlapPercent, 20, 60);
		List<Fault> faults = new ArrayList<>();
		for (int n = 0; n < count; n++) {
			faults.add(schedule.next());
		}
		return faults;
	}

	// What a single fault drew, but its place in the run.
	private static String drawn(Fault fault) {
		return fault.kind() + " " + fault.gapSeconds() + " " + fault.seconds() + " " + fault.victim();
	}

}
