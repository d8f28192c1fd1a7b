package io.slotkeeper.bench;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The soak at length
 * ({@code ./mvnw test -Pbench -Dtest=SoakBench -Dsoak.minutes=60 -Dsoak.seed=…}): faults
 * drawn from the seed every 20–60 s on the real pieces, the figures printed (faults per
 * kind, time until whole again p50 / p99 / max, rows missing, duplicates, heals,
 * handovers, takeovers, the longest wait of a row) and every invariant checked. The seed
 * defaults to the time, and is printed first.
 */
@Tag("benchmark")
class SoakBench {

	@Test
	void soak() {
		long seed = Long.getLong("soak.seed", System.currentTimeMillis());
		long minutes = Long.getLong("soak.minutes", 60);
		io.slotkeeper.soak.SoakRuns.atLength(seed, minutes);
	}

	// One of the seeds that found a defect, at the length it found it at
	// (-Dsoak.seed=5064).
	@Test
	void keptGreen() {
		io.slotkeeper.soak.SoakRuns.kept(Long.getLong("soak.seed", 5064L));
	}

}
