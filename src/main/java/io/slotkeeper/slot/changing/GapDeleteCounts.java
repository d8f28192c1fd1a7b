package io.slotkeeper.slot.changing;

import java.time.Duration;
import java.time.Instant;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;

import io.slotkeeper.fleet.GapDeletes;
import io.slotkeeper.fleet.Lsn;
import io.slotkeeper.fleet.TableCounters;
import io.slotkeeper.fleet.TableWrites;
import io.slotkeeper.fleet.Target;
import io.slotkeeper.problem.ProblemException;

/**
 * Counts the rows deleted from a recreated slot's tables while it was lost ({@link GapDeletes}), at the recreate and
 * once more {@code resnapshot.recheck-after} later, since a backend may show its commits in the counters late. Each
 * count goes to {@code slotkeeper_slot_gap_counts_total{target,slot,outcome}} (exported at 0 for every slot with a
 * policy, so that an alert on its increase sees the first), and the deletes of each table to
 * {@code slotkeeper_slot_gap_deletes_total{target,slot,table}}.
 */
final class GapDeleteCounts {

	// PostgreSQL 15 keeps the counters in shared memory; before it, a statistics collector over UDP may lose some.
	private static final int SHARED_STATS_VERSION = 150000;

	private static final String DELETED = "deleted";

	private static final String UNKNOWN = "unknown";

	private static final String NONE = "none";

	private static final List<String> OUTCOMES = List.of(DELETED, UNKNOWN, NONE);

	private final MeterRegistry registry;

	private final DueRechecks<Recheck> rechecks = new DueRechecks<>(Recheck::due);

	private final Set<String> primed = ConcurrentHashMap.newKeySet();

	GapDeleteCounts(MeterRegistry registry) {
		this.registry = registry;
	}

	/**
	 * At a recreate on the primary: counts the deletes since the last reading before the lost slot's last confirmed
	 * position, and keeps what the recheck measures from.
	 * @param target the target
	 * @param slot the slot
	 * @param previousConfirmedFlushLsn the lost slot's last confirmed position, {@code null} when unknown
	 * @param tables the slot's tables, {@code null} for every table sampled
	 * @return the count, or why it cannot be told
	 */
	GapDeletes atRecreate(Target target, String slot, String previousConfirmedFlushLsn, Collection<String> tables) {
		GapDeletes counted = measure(target, slot, previousConfirmedFlushLsn, tables);
		count(target, slot, counted, null);
		return counted;
	}

	private GapDeletes measure(Target target, String slot, String previousConfirmedFlushLsn,
			Collection<String> tables) {
		if (target.policy(slot).filter(TableCounters::sampledFor).isEmpty()) {
			return GapDeletes.unknown("the table counters are sampled only for slots whose resnapshot.mode is"
					+ " debezium-signal");
		}
		if (previousConfirmedFlushLsn == null) {
			return GapDeletes.unknown("the lost slot's last confirmed position is not known");
		}
		TableWrites before = target.tableCounters().before(Lsn.parse(previousConfirmedFlushLsn)).orElse(null);
		if (before == null) {
			return GapDeletes.unknown("no reading of the table counters from before the slot's last confirmed"
					+ " position (this instance started after it, or its heartbeat could not read them)");
		}
		if (before.serverVersion() < SHARED_STATS_VERSION) {
			return GapDeletes.unknown("PostgreSQL before 15 may lose table counters (its statistics collector drops"
					+ " messages under load)");
		}
		TableWrites now;
		try {
			now = target.primary().withConnection((connection) -> TableWrites.read(connection, tables));
		}
		catch (ProblemException ex) {
			return GapDeletes.unknown("the table counters could not be read at the recreate: " + ex.getMessage());
		}
		GapDeletes counted = GapDeletes.between(before, now, tables);
		Duration after = target.policy(slot).map((policy) -> policy.resnapshot().recheckAfter())
			.orElse(Duration.ofSeconds(60));
		this.rechecks.put(target.name(), slot, new Recheck(slot, before, counted, tables, now.at(),
				Instant.now().plus(after)));
		return counted;
	}

	/**
	 * Whether a recheck waits for the target.
	 * @param target the target
	 * @return whether one waits
	 */
	boolean waiting(Target target) {
		return this.rechecks.waiting(target.name());
	}

	/**
	 * Counts again the deletes of the target's recreates whose recheck is due, and records any that showed late in
	 * the slot's lineage.
	 * @param target the target
	 * @return the counts that changed, by slot
	 */
	Map<String, GapDeletes> recheck(Target target) {
		Map<String, GapDeletes> changed = new LinkedHashMap<>();
		for (Recheck recheck : this.rechecks.take(target.name())) {
			try {
				GapDeletes again = target.primary().withConnection((connection) -> {
					TableWrites now = TableWrites.read(connection, recheck.tables());
					GapDeletes counted = GapDeletes.between(recheck.before(), now, recheck.tables());
					if (sameCount(counted, recheck.first())) {
						return null;
					}
					GapDeletes late = new GapDeletes(counted.tables(), counted.unknown(), null, counted.measured()
							+ ", read again " + Duration.between(recheck.countedAt(), now.at()).toSeconds()
							+ " s after the recreate for commits counted late (a delete after the recreate, which"
							+ " the consumer saw, may be counted too)");
					target.lineages().deletesCounted(connection, recheck.slot(), late);
					return late;
				});
				if (again != null) {
					count(target, recheck.slot(), again, recheck.first());
					changed.put(recheck.slot(), again);
				}
			}
			catch (ProblemException ex) {
				// The first count stands: the audit of the recreate said it.
			}
		}
		return changed;
	}

	private static boolean sameCount(GapDeletes one, GapDeletes other) {
		return one.tables().equals(other.tables()) && one.unknown().equals(other.unknown());
	}

	/**
	 * Exports the gap counts of the target's slots with a policy at 0 until the first.
	 * @param target the target
	 */
	void prime(Target target) {
		target.policies().forEach((policy) -> {
			if (this.primed.add(target.name() + "/" + policy.name())) {
				OUTCOMES.forEach((outcome) -> outcomes(target, policy.name(), outcome));
			}
		});
	}

	// A recount counts an outcome only where the first count did not have it, and adds only deletes beyond it.
	private void count(Target target, String slot, GapDeletes counted, GapDeletes earlier) {
		Set<String> before = (earlier != null) ? outcomes(earlier) : Set.of();
		outcomes(counted).stream().filter((outcome) -> !before.contains(outcome))
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

	/**
	 * A count to take again.
	 * @param slot the slot
	 * @param before the reading it is counted from
	 * @param first the count at the recreate
	 * @param tables the slot's tables, {@code null} for every table
	 * @param countedAt the server's clock at the first count
	 * @param due when to count again
	 */
	record Recheck(String slot, TableWrites before, GapDeletes first, Collection<String> tables, Instant countedAt,
			Instant due) {
	}

}
