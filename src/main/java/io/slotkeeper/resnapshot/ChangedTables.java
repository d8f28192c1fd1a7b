package io.slotkeeper.resnapshot;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import io.slotkeeper.config.ResnapshotProperties;
import io.slotkeeper.fleet.Target;
import io.slotkeeper.lineage.TableWrites;
import io.slotkeeper.sessions.Lsn;
import io.slotkeeper.support.DueRechecks;

/**
 * Which tables a re-snapshot after a recreate reads when the slot's settings say
 * {@code tables: changed}: those whose write counters moved between the last reading
 * taken before the lost slot's last confirmed position (pinned at the recreate) and a
 * reading when the signal is sent. Every table when no such reading exists, or before
 * PostgreSQL 15, whose statistics collector may drop counts. The skipped tables are read
 * once more {@code recheckAfter} the recreate, since a backend may show its commits in
 * the counters up to 60 s late; those that moved then get a second signal. Held in this
 * instance's memory: after a restart, a re-snapshot reads every table.
 */
final class ChangedTables {

	// PostgreSQL 15 keeps the counters in shared memory; before it, a statistics
	// collector over UDP may lose some.
	private static final int SHARED_STATS_VERSION = 150000;

	private final Map<String, Pin> pins = new ConcurrentHashMap<>();

	private final DueRechecks<Recheck> rechecks;

	private final Clock clock;

	ChangedTables(Clock clock) {
		this.rechecks = new DueRechecks<>(Recheck::due, clock);
		this.clock = clock;
	}

	/**
	 * At a recreate: keeps the reading the slot's lost range is measured from, when its
	 * settings ask for only the changed tables.
	 */
	void pin(Target target, String slot, String previousConfirmedFlushLsn) {
		if (!asked(target, slot)) {
			return;
		}
		TableWrites before = (previousConfirmedFlushLsn != null)
				? target.tableCounters().before(Lsn.parse(previousConfirmedFlushLsn)).orElse(null) : null;
		this.pins.put(key(target.name(), slot), new Pin(before, this.clock.instant()));
	}

	/**
	 * The reading pinned at the slot's last recreate, taken: {@code null} when none was
	 * (its settings read every table, or this instance did not recreate it).
	 */
	Pin take(Target target, String slot) {
		return this.pins.remove(key(target.name(), slot));
	}

	static boolean asked(Target target, String slot) {
		return target.slots()
			.policy(slot)
			.map((policy) -> policy.resnapshot().tables() == ResnapshotProperties.Tables.CHANGED)
			.orElse(false);
	}

	/**
	 * Chooses the tables to read.
	 * @param pin the reading from before the loss
	 * @param now a reading taken now
	 * @param collections the slot's tables
	 * @param settings the slot's re-snapshot settings
	 * @param columnTypes the types of the tables' update columns
	 * ({@link UpdateColumns#types}), {@code null} for one that does not exist
	 * @return the tables to read and, for the answer, those skipped and why
	 */
	static Choice choose(Pin pin, TableWrites now, List<String> collections, ResnapshotProperties settings,
			Map<String, String> columnTypes) {
		if (now.serverVersion() < SHARED_STATS_VERSION) {
			return Choice.all(collections, "PostgreSQL before 15 may lose table counters (its statistics collector"
					+ " drops messages under load): every table is read");
		}
		if (pin.before() == null) {
			return Choice.all(collections, "no reading of the table counters from before the slot's last confirmed"
					+ " position (this instance started after it or after the recreate, or its heartbeat could not read"
					+ " them): every table is read");
		}
		List<String> read = new ArrayList<>();
		List<SkippedTable> skipped = new ArrayList<>();
		Map<String, String> conditions = new LinkedHashMap<>();
		Map<String, String> whole = new LinkedHashMap<>();
		Instant windowStart = pin.before().at().minus(settings.windowMargin());
		for (String table : collections) {
			if (now.movedSince(pin.before(), table)) {
				read.add(table);
				settings.updateColumnOf(table).ifPresent((column) -> {
					String why = UpdateColumns.readWhole(column, columnTypes.get(table));
					if (why == null) {
						conditions.put(table, UpdateColumns.condition(column, windowStart));
					}
					else {
						whole.put(table, why);
					}
				});
			}
			else {
				skipped.add(new SkippedTable(table, "no row inserted, updated or deleted since " + pin.before().at()
						+ " (its write counters did not move)"));
			}
		}
		return new Choice(read,
				new TableChoice(
						"only the tables written to since " + pin.before().at()
								+ ", the last reading before the slot's last confirmed position",
						skipped, conditions, whole));
	}

	/**
	 * After a signal: reads the skipped tables again once the recreate is
	 * {@code recheckAfter} old.
	 */
	void recheckLater(Target target, String slot, Pin pin, TableWrites sent, TableChoice choice,
			Duration recheckAfter) {
		Instant due = pin.at().plus(recheckAfter);
		if (choice.skipped().isEmpty() || !this.clock.instant().isBefore(due)) {
			return;
		}
		this.rechecks.put(target.name(), slot,
				new Recheck(slot, sent, choice.skipped().stream().map(SkippedTable::table).toList(), due));
	}

	boolean waiting(Target target) {
		return this.rechecks.waiting(target.name());
	}

	/**
	 * The target's rechecks that are due, taken.
	 */
	List<Recheck> due(Target target) {
		return this.rechecks.take(target.name());
	}

	private static String key(String target, String slot) {
		return target + "/" + slot;
	}

	/**
	 * The reading a recreate's lost range is measured from.
	 *
	 * @param before the newest reading before the lost slot's last confirmed position,
	 * {@code null} when none
	 * @param at when the slot was recreated
	 */
	record Pin(TableWrites before, Instant at) {
	}

	/**
	 * Tables skipped by a signal, to read again.
	 *
	 * @param slot the slot
	 * @param sent the reading the signal was chosen from
	 * @param tables the tables it skipped
	 * @param due when to read them again
	 */
	record Recheck(String slot, TableWrites sent, List<String> tables, Instant due) {
	}

	/**
	 * The tables chosen.
	 *
	 * @param read those to read
	 * @param answer what the answer says
	 */
	record Choice(List<String> read, TableChoice answer) {

		static Choice all(List<String> collections, String why) {
			return new Choice(collections, new TableChoice(why, List.of(), Map.of(), Map.of()));
		}

	}

}
