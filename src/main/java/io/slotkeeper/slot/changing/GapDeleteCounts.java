package io.slotkeeper.slot.changing;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
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
 * count goes to {@code slotkeeper_slot_gap_deletes_total{target,slot,table}}, or, when it cannot be told,
 * {@code slotkeeper_slot_gap_deletes_unknown_total{target,slot}}.
 */
final class GapDeleteCounts {

	// PostgreSQL 15 keeps the counters in shared memory; before it, a statistics collector over UDP may lose some.
	private static final int SHARED_STATS_VERSION = 150000;

	private final MeterRegistry registry;

	private final Map<String, Recheck> rechecks = new ConcurrentHashMap<>();

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
		this.rechecks.put(key(target.name(), slot), new Recheck(slot, before, counted, tables, now.at(),
				Instant.now().plus(after)));
		return counted;
	}

	/**
	 * Whether a recheck waits for the target.
	 * @param target the target
	 * @return whether one waits
	 */
	boolean waiting(Target target) {
		String prefix = target.name() + "/";
		return this.rechecks.keySet().stream().anyMatch((key) -> key.startsWith(prefix));
	}

	/**
	 * Counts again the deletes of the target's recreates whose recheck is due, and records any that showed late in
	 * the slot's lineage.
	 * @param target the target
	 * @return the counts that changed, by slot
	 */
	Map<String, GapDeletes> recheck(Target target) {
		Map<String, GapDeletes> changed = new LinkedHashMap<>();
		for (Recheck recheck : due(target)) {
			try {
				GapDeletes again = target.primary().withConnection((connection) -> {
					TableWrites now = TableWrites.read(connection, recheck.tables());
					GapDeletes counted = GapDeletes.between(recheck.before(), now, recheck.tables());
					GapDeletes late = new GapDeletes(counted.tables(), counted.unknown(), null, counted.measured()
							+ ", read again " + Duration.between(recheck.countedAt(), now.at()).toSeconds()
							+ " s after the recreate for commits counted late (a delete after the recreate, which"
							+ " the consumer saw, may be counted too)");
					if (!counted.tables().equals(recheck.first().tables())
							|| !counted.unknown().equals(recheck.first().unknown())) {
						target.lineages().deletesCounted(connection, recheck.slot(), late);
					}
					return late;
				});
				if (!again.tables().equals(recheck.first().tables())
						|| !again.unknown().equals(recheck.first().unknown())) {
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

	private List<Recheck> due(Target target) {
		List<Recheck> due = new ArrayList<>();
		Instant now = Instant.now();
		this.rechecks.forEach((key, recheck) -> {
			if (key.startsWith(target.name() + "/") && !now.isBefore(recheck.due())
					&& this.rechecks.remove(key, recheck)) {
				due.add(recheck);
			}
		});
		return due;
	}

	// A recount adds only what it found beyond the first count.
	private void count(Target target, String slot, GapDeletes counted, GapDeletes earlier) {
		if (counted.unknownBecause() != null || (!counted.unknown().isEmpty() && (earlier == null
				|| earlier.unknown().isEmpty()))) {
			Counter.builder("slotkeeper.slot.gap.deletes.unknown")
				.description("Recreates whose rows deleted while the slot was lost could not be told, in whole or in"
						+ " part (PostgreSQL before 15, no reading, TRUNCATE)")
				.tags("target", target.name(), "slot", slot)
				.register(this.registry)
				.increment();
		}
		counted.tables().forEach((table, deleted) -> {
			long before = (earlier != null) ? earlier.tables().getOrDefault(table, 0L) : 0L;
			if (deleted > before) {
				Counter.builder("slotkeeper.slot.gap.deletes")
					.description("Rows deleted from the slot's tables while it was lost: no re-snapshot brings their"
							+ " deletes to the consumer")
					.tags("target", target.name(), "slot", slot, "table", table)
					.register(this.registry)
					.increment(deleted - before);
			}
		});
	}

	private static String key(String target, String slot) {
		return target + "/" + slot;
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
