package io.slotkeeper.gap;

import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonProperty;

/**
 * What a lost slot's consumer missed, as the slot's journal read it: every change
 * committed from the lost slot's last confirmed position to where its new slot starts.
 *
 * @param from the lost slot's last confirmed position, where the journal began
 * @param to where the new slot starts: changes committed from it on reach the consumer
 * through the new slot
 * @param journal what the journal read, keys included: never answered or logged
 * @param incomplete why the journal does not cover the whole gap, {@code null} when it
 * does
 */
public record Gap(String from, String to, @JsonIgnore GapJournal journal, String incomplete) {

	/**
	 * Each table's changes in the gap.
	 * @return by qualified name
	 */
	@JsonProperty("tables")
	public Map<String, GapJournal.TableSummary> tables() {
		return this.journal.tables();
	}

	/**
	 * Whether every table's changes are known key by key.
	 * @return whether the gap is exact
	 */
	@JsonProperty("exact")
	public boolean exact() {
		return this.incomplete == null && tables().values().stream().allMatch(GapJournal.TableSummary::exact);
	}

	/**
	 * The gap in one line, for the audit and the log: counts only, never a key.
	 * @return for example {@code exact, 0/1A0 to 0/2B0: public.customers 3 deleted;
	 * public.products 1 updated}
	 */
	public String describe() {
		String head = ((this.incomplete != null) ? "incomplete (" + this.incomplete + ")"
				: exact() ? "exact" : "exact but for some tables") + ", " + this.from + " to " + this.to;
		if (tables().isEmpty()) {
			return head + ": nothing changed";
		}
		return head + ": "
				+ tables().entrySet()
					.stream()
					.map((table) -> table.getKey() + " " + describe(table.getValue()))
					.collect(Collectors.joining("; "));
	}

	private static String describe(GapJournal.TableSummary table) {
		StringBuilder text = new StringBuilder();
		List.of(Map.entry(table.inserted(), "inserted"), Map.entry(table.updated(), "updated"),
				Map.entry(table.deleted(), "deleted"))
			.stream()
			.filter((count) -> count.getKey() > 0)
			.forEach((count) -> text.append((text.length() > 0) ? ", " : "")
				.append(count.getKey())
				.append(' ')
				.append(count.getValue()));
		if (!table.truncates().isEmpty()) {
			text.append((text.length() > 0) ? ", " : "")
				.append("truncated at ")
				.append(String.join(", ", table.truncates()));
		}
		if (table.whyNotExact() != null) {
			text.append((text.length() > 0) ? " " : "").append("(not exact: ").append(table.whyNotExact()).append(')');
		}
		return (text.length() > 0) ? text.toString() : "nothing the consumer misses";
	}

}
