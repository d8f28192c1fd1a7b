package io.slotkeeper.slot.changing;

import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;

import io.slotkeeper.fleet.Target;
import io.slotkeeper.lineage.GapDeletes;

/**
 * The meters of gap counts: {@code slotkeeper_slot_gap_counts_total{target,slot,outcome}}
 * (exported at 0 for every slot with a policy, so that an alert on its increase sees the
 * first) and {@code slotkeeper_slot_gap_deletes_total{target,slot,table}}.
 */
final class GapDeleteMeters {

	private static final String DELETED = "deleted";

	private static final String UNKNOWN = "unknown";

	private static final String NONE = "none";

	private static final List<String> OUTCOMES = List.of(DELETED, UNKNOWN, NONE);

	private final MeterRegistry registry;

	private final Set<String> primed = ConcurrentHashMap.newKeySet();

	GapDeleteMeters(MeterRegistry registry) {
		this.registry = registry;
	}

	/**
	 * Exports the gap counts of the target's slots with a policy at 0 until the first.
	 * @param target the target
	 */
	void prime(Target target) {
		target.slots().policies().forEach((policy) -> {
			if (this.primed.add(target.name() + "/" + policy.name())) {
				OUTCOMES.forEach((outcome) -> outcomes(target, policy.name(), outcome));
			}
		});
	}

	// A recount counts an outcome only where the first count did not have it, and adds
	// only deletes beyond it.
	void count(Target target, String slot, GapDeletes counted, GapDeletes earlier) {
		Set<String> before = (earlier != null) ? outcomes(earlier) : Set.of();
		outcomes(counted).stream()
			.filter((outcome) -> !before.contains(outcome))
			.forEach((outcome) -> outcomes(target, slot, outcome).increment());
		counted.tables().forEach((table, deleted) -> {
			long first = (earlier != null) ? earlier.tables().getOrDefault(table, 0L) : 0L;
			if (deleted > first) {
				Counter.builder("slotkeeper.slot.gap.deletes")
					.description("Rows deleted from the slot's tables while it was lost: no re-snapshot brings their"
							+ " deletes to the consumer")
					.tags("target", target.name(), "slot", slot, "table", table)
					.register(this.registry)
					.increment(deleted - first);
			}
		});
	}

	private static Set<String> outcomes(GapDeletes counted) {
		Set<String> outcomes = new LinkedHashSet<>();
		if (counted.tables().values().stream().anyMatch((deleted) -> deleted > 0)) {
			outcomes.add(DELETED);
		}
		if (counted.unknownBecause() != null || !counted.unknown().isEmpty()) {
			outcomes.add(UNKNOWN);
		}
		if (outcomes.isEmpty()) {
			outcomes.add(NONE);
		}
		return outcomes;
	}

	private Counter outcomes(Target target, String slot, String outcome) {
		return Counter.builder("slotkeeper.slot.gap.counts")
			.description("Counts of the rows deleted while the slot was lost, by what they found: deleted (rows of a"
					+ " table were), unknown (a table or the whole could not be told: PostgreSQL before 15, no"
					+ " reading, TRUNCATE), none; one count may find deleted and unknown")
			.tags("target", target.name(), "slot", slot, "outcome", outcome)
			.register(this.registry);
	}

}
