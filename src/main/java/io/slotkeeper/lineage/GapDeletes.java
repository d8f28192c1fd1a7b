package io.slotkeeper.lineage;

import java.util.Collection;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;

/**
 * The rows deleted from a slot's tables while it was lost, as the table counters
 * ({@code n_tup_del}) count them: a re-snapshot re-reads the rows that exist, so these
 * never reach the consumer, and an upserting sink keeps them for good. Counted from the
 * last reading before the lost slot's last confirmed position, so a delete the consumer
 * did see just before it may be counted too: an upper bound, never less than what was
 * lost while the counters hold.
 *
 * @param tables the deletes counted, by table, only those with one or more
 * @param unknown the tables whose deletes cannot be told, each with why (truncated or
 * rewritten, counters reset, not in both readings)
 * @param unknownBecause why no table's deletes can be told, {@code null} when they were
 * counted
 * @param measured from which reading to which they were counted, {@code null} when not
 * @param source {@value #EXACT} when the slot's gap journal read each deleted key,
 * {@value #ESTIMATE} when the table counters were compared (a record from before the
 * journal has none: an estimate)
 * @param changes where the gap journal read the gap, every table's changes in it key by
 * key (inserted, updated, deleted, truncated); empty for an estimate
 */
public record GapDeletes(Map<String, Long> tables, Map<String, String> unknown, String unknownBecause, String measured,
		String source, Map<String, TableChanges> changes) {

	/** The source of deletes read key by key from the gap journal. */
	public static final String EXACT = "exact";

	/** The source of deletes estimated from the table counters. */
	public static final String ESTIMATE = "estimate";

	/**
	 * Keeps what was given, tables in name order.
	 */
	public GapDeletes {
		tables = Map.copyOf(tables);
		unknown = Map.copyOf(unknown);
		source = (source != null) ? source : ESTIMATE;
		changes = (changes != null) ? Map.copyOf(changes) : Map.of();
	}

	/**
	 * Deletes that cannot be told at all.
	 * @param why why, in words
	 * @return the count
	 */
	public static GapDeletes unknown(String why) {
		return new GapDeletes(Map.of(), Map.of(), why, null, ESTIMATE, Map.of());
	}

	/**
	 * The deletes a complete gap journal read, key by key.
	 * @param tables the keys deleted, by table, only those with one or more
	 * @param unknown the tables the journal could not tell key by key, each with why
	 * @param measured over which positions they were read
	 * @param changes every table's changes in the gap
	 * @return the count
	 */
	public static GapDeletes exact(Map<String, Long> tables, Map<String, String> unknown, String measured,
			Map<String, TableChanges> changes) {
		return new GapDeletes(tables, unknown, null, measured, EXACT, changes);
	}

	/**
	 * Whether the deletes were read key by key, not estimated.
	 * @return whether they are exact
	 */
	public boolean exact() {
		return EXACT.equals(this.source);
	}

	/**
	 * The deletes of the tables between two readings.
	 * @param before the reading from before the loss
	 * @param now a reading at the recreate or after it
	 * @param tables the slot's tables, {@code null} for every table both readings hold
	 * @return the count
	 */
	public static GapDeletes between(TableWrites before, TableWrites now, Collection<String> tables) {
		Map<String, Long> counted = new TreeMap<>();
		Map<String, String> unknown = new TreeMap<>();
		Collection<String> names = (tables != null) ? tables : now.counts().keySet();
		for (String table : names) {
			TableWrites.Counts then = before.counts().get(table);
			TableWrites.Counts later = now.counts().get(table);
			if (then == null || later == null) {
				unknown.put(table, "not in both readings of the table counters (made, dropped or renamed meanwhile)");
			}
			else if (then.file() != later.file()) {
				unknown.put(table, "its file changed: TRUNCATE (whose rows the counters do not count as deleted),"
						+ " VACUUM FULL, CLUSTER or a rewriting ALTER TABLE ran while the slot was lost");
			}
			else if (later.deleted() < then.deleted()) {
				unknown.put(table, "its counters went back (pg_stat_reset, or a crash)");
			}
			else if (later.deleted() > then.deleted()) {
				counted.put(table, later.deleted() - then.deleted());
			}
		}
		return new GapDeletes(counted, unknown, null,
				"estimated from the table counters (n_tup_del), from " + before.at()
						+ " (the last reading before the slot's" + " last confirmed position) to " + now.at(),
				ESTIMATE, Map.of());
	}

	/**
	 * One table's changes in a gap the journal read, key by key.
	 *
	 * @param inserted keys inserted
	 * @param updated keys updated
	 * @param deleted keys deleted
	 * @param truncated how many times it was truncated
	 */
	public record TableChanges(int inserted, int updated, int deleted, int truncated) {
	}

	/**
	 * All deletes counted.
	 * @return their sum
	 */
	public long total() {
		return this.tables.values().stream().mapToLong(Long::longValue).sum();
	}

	/**
	 * The count in a few words, for the audit.
	 * @return for example {@code public.orders 3; unknown: public.items (its file
	 * changed: …) (estimated from the table counters)}
	 */
	public String describe() {
		if (this.unknownBecause != null) {
			return "unknown: " + this.unknownBecause;
		}
		String counted = this.tables.isEmpty() ? "none counted"
				: new TreeMap<>(this.tables).entrySet()
					.stream()
					.map((entry) -> entry.getKey() + " " + entry.getValue())
					.collect(Collectors.joining(", "));
		return counted
				+ (this.unknown.isEmpty() ? ""
						: "; unknown: " + new TreeMap<>(this.unknown).entrySet()
							.stream()
							.map((entry) -> entry.getKey() + " (" + entry.getValue() + ")")
							.collect(Collectors.joining(", ")))
				+ (exact() ? " (exact, from the gap journal)" : " (estimated from the table counters)");
	}

}
