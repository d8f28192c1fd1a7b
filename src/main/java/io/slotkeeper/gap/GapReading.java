package io.slotkeeper.gap;

import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A gap as an operator reads it: a journal still being kept, or the last one a recreate
 * closed. Built at once from the journal, so that a poll feeding it meanwhile changes
 * nothing of it.
 *
 * @param at when the journal began (one being kept) or when the gap was closed (the last)
 * @param from the slot's last confirmed position, where the journal began
 * @param to how far the journal has read (one being kept), or where the new slot starts
 * (the last)
 * @param exact whether every table's changes are known key by key
 * @param incomplete why the journal does not cover the whole gap, {@code null} when it
 * does
 * @param tables each table's counts, and why it is not exact
 * @param deletedKeys each table's deleted keys, column by column, at most as many as
 * asked per table; {@code null} when not asked (a viewer gets counts only)
 * @param events each outbox table's events (rows inserted in the gap), column by column,
 * at most as many as asked per table; {@code null} when not asked
 */
public record GapReading(Instant at, String from, String to, boolean exact, String incomplete,
		Map<String, GapJournal.TableSummary> tables, Map<String, List<Map<String, String>>> deletedKeys,
		Map<String, List<Map<String, String>>> events) {

	/**
	 * Reads a gap.
	 * @param at when it began or was closed
	 * @param gap the gap
	 * @param keys how many deleted keys and events to list per table; 0 for none
	 * @return the reading
	 */
	static GapReading of(Instant at, Gap gap, int keys) {
		Map<String, GapJournal.TableSummary> tables = gap.tables();
		Map<String, List<Map<String, String>>> deleted = null;
		Map<String, List<Map<String, String>>> events = null;
		if (keys > 0) {
			deleted = new LinkedHashMap<>();
			events = new LinkedHashMap<>();
			for (Map.Entry<String, GapJournal.TableSummary> table : tables.entrySet()) {
				List<String> columns = table.getValue().keyColumns();
				List<Map<String, String>> listed = new ArrayList<>();
				for (List<String> key : gap.journal().keys(table.getKey(), GapJournal.Change.DELETED)) {
					if (listed.size() == keys) {
						break;
					}
					listed.add(named(columns, key));
				}
				if (!listed.isEmpty()) {
					deleted.put(table.getKey(), listed);
				}
				List<Map<String, String>> rows = gap.journal()
					.events(table.getKey())
					.stream()
					.limit(keys)
					.map((event) -> named(event.columns(), event.values()))
					.toList();
				if (!rows.isEmpty()) {
					events.put(table.getKey(), rows);
				}
			}
		}
		return new GapReading(at, gap.from(), gap.to(), gap.exact(), gap.incomplete(), tables, deleted, events);
	}

	// Column by column; a SQL NULL stays null.
	private static Map<String, String> named(List<String> columns, List<String> values) {
		Map<String, String> named = new LinkedHashMap<>();
		for (int column = 0; column < columns.size() && column < values.size(); column++) {
			named.put(columns.get(column), values.get(column));
		}
		return named;
	}

}
