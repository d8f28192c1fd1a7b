package io.slotkeeper.slot.changing;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import io.micrometer.core.instrument.MeterRegistry;

import io.slotkeeper.fleet.Target;
import io.slotkeeper.gap.Gap;
import io.slotkeeper.lineage.GapDeletes;
import io.slotkeeper.lineage.TableCounters;
import io.slotkeeper.lineage.TableWrites;
import io.slotkeeper.problem.ProblemException;
import io.slotkeeper.sessions.Lsn;
import io.slotkeeper.support.DueRechecks;

/**
 * Counts the rows deleted from a recreated slot's tables while it was lost
 * ({@link GapDeletes}), at the recreate and from a reading taken {@value #SETTLE_SECONDS}
 * s later, since a backend shows its commits in the shared counters up to a second late
 * (PostgreSQL flushes a backend's pending counts at most once per second). The later
 * reading is taken on time by a timer, not at the next poll: every delete after the
 * recreate until it is read, which the consumer saw through the new slot, is counted too,
 * so the later it were read, the further the count would overstate. Each count goes to
 * the meters ({@link GapDeleteMeters}).
 */
final class GapDeleteCounts {

	// PostgreSQL 15 keeps the counters in shared memory; before it, a statistics
	// collector over UDP may lose some.
	private static final int SHARED_STATS_VERSION = 150000;

	static final int SETTLE_SECONDS = 2;

	private static final Duration SETTLE = Duration.ofSeconds(SETTLE_SECONDS);

	// One daemon thread for every target and test context: a reading every recreate is
	// all it takes.
	private static final ScheduledExecutorService SETTLING = Executors.newSingleThreadScheduledExecutor((work) -> {
		Thread thread = new Thread(work, "slotkeeper-gap-recount");
		thread.setDaemon(true);
		return thread;
	});

	private final GapDeleteMeters meters;

	private final DueRechecks<Recheck> rechecks;

	private final Clock clock;

	GapDeleteCounts(MeterRegistry registry, Clock clock) {
		this.meters = new GapDeleteMeters(registry);
		this.rechecks = new DueRechecks<>(Recheck::due, clock);
		this.clock = clock;
	}

	/**
	 * At a recreate on the primary: counts the deletes since the last reading before the
	 * lost slot's last confirmed position, and keeps what the recheck measures from.
	 * @param target the target
	 * @param slot the slot
	 * @param previousConfirmedFlushLsn the lost slot's last confirmed position,
	 * {@code null} when unknown
	 * @param tables the slot's tables, {@code null} for every table sampled
	 * @return the count, or why it cannot be told
	 */
	GapDeletes atRecreate(Target target, String slot, String previousConfirmedFlushLsn, Collection<String> tables) {
		GapDeletes counted = measure(target, slot, previousConfirmedFlushLsn, tables);
		this.meters.count(target, slot, counted, null);
		return counted;
	}

	/**
	 * At a recreate whose gap a complete journal read: the deletes it read key by key,
	 * with no estimate and no recheck; a table it could not tell key by key is unknown.
	 * @param target the target
	 * @param slot the slot
	 * @param gap the gap
	 * @return the count
	 */
	GapDeletes journaled(Target target, String slot, Gap gap) {
		Map<String, Long> deleted = new TreeMap<>();
		Map<String, String> unknown = new TreeMap<>();
		Map<String, GapDeletes.TableChanges> changes = new TreeMap<>();
		gap.tables().forEach((table, summary) -> {
			if (summary.deleted() > 0) {
				deleted.put(table, (long) summary.deleted());
			}
			if (!summary.exact()) {
				unknown.put(table, summary.whyReadWhole());
			}
			changes.put(table, new GapDeletes.TableChanges(summary.inserted(), summary.updated(), summary.deleted(),
					summary.truncates().size()));
		});
		GapDeletes counted = GapDeletes.exact(deleted, unknown,
				"read key by key from the gap journal, " + gap.from() + " to " + gap.to(), changes);
		this.meters.count(target, slot, counted, null);
		return counted;
	}

	private GapDeletes measure(Target target, String slot, String previousConfirmedFlushLsn,
			Collection<String> tables) {
		if (target.slots().policy(slot).filter(TableCounters::sampledFor).isEmpty()) {
			return GapDeletes
				.unknown("the table counters are sampled only for slots whose resnapshot.mode is" + " debezium-signal");
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
		CompletableFuture<TableWrites> settled = new CompletableFuture<>();
		SETTLING.schedule(() -> {
			try {
				settled.complete(target.primary().withConnection((connection) -> TableWrites.read(connection, tables)));
			}
			catch (RuntimeException ex) {
				settled.completeExceptionally(ex);
			}
		}, SETTLE.toMillis(), TimeUnit.MILLISECONDS);
		this.rechecks.put(target.name(), slot,
				new Recheck(slot, before, counted, tables, now.at(), settled, this.clock.instant().plus(SETTLE)));
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
	 * Counts again, from the reading taken {@value #SETTLE_SECONDS} s after it, the
	 * deletes of the target's recreates whose recheck is due, and records any that showed
	 * late in the slot's lineage.
	 * @param target the target
	 * @return the counts that changed, by slot
	 */
	Map<String, GapDeletes> recheck(Target target) {
		Map<String, GapDeletes> changed = new LinkedHashMap<>();
		for (Recheck recheck : this.rechecks.take(target.name())) {
			TableWrites now = recheck.settledReading();
			if (now == null) {
				continue;
			}
			try {
				GapDeletes again = target.primary().withConnection((connection) -> {
					GapDeletes counted = GapDeletes.between(recheck.before(), now, recheck.tables());
					if (sameCount(counted, recheck.first())) {
						return null;
					}
					GapDeletes late = new GapDeletes(counted.tables(), counted.unknown(), null, counted.measured()
							+ ", read again " + Duration.between(recheck.countedAt(), now.at()).toSeconds()
							+ " s after the recreate for commits counted late (a delete in those seconds, which the"
							+ " consumer saw, is counted too)", GapDeletes.ESTIMATE, Map.of());
					target.lineages().deletesCounted(connection, recheck.slot(), late);
					return late;
				});
				if (again != null) {
					this.meters.count(target, recheck.slot(), again, recheck.first());
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
	 * Exports the count's meters at 0 for every slot of the target with a policy.
	 * @param target the target
	 */
	void prime(Target target) {
		this.meters.prime(target);
	}

	/**
	 * A count to take again.
	 *
	 * @param slot the slot
	 * @param before the reading it is counted from
	 * @param first the count at the recreate
	 * @param tables the slot's tables, {@code null} for every table
	 * @param countedAt the server's clock at the first count
	 * @param settled the reading taken {@value #SETTLE_SECONDS} s after the first count
	 * @param due when to count again
	 */
	record Recheck(String slot, TableWrites before, GapDeletes first, Collection<String> tables, Instant countedAt,
			CompletableFuture<TableWrites> settled, Instant due) {

		// Null when it could not be taken (the primary down): the first count stands, as
		// the recreate's audit said it.
		TableWrites settledReading() {
			try {
				return this.settled.get(30, TimeUnit.SECONDS);
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
				return null;
			}
			catch (ExecutionException | TimeoutException ex) {
				return null;
			}
		}

	}

}
