package io.slotkeeper.gap;

import java.util.function.IntSupplier;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;

/**
 * The meters of the gap journals: {@code slotkeeper_gap_journals} (kept now by this
 * instance, each with a copy of its slot on the server),
 * {@code slotkeeper_slot_gap_journaled_total{target,slot,outcome}} (a recreate's gap,
 * {@code exact}, {@code not_exact} or {@code incomplete}) and
 * {@code slotkeeper_slot_gap_changes_total{target,slot,table,change}} (its exact counts:
 * {@code inserted}, {@code updated}, {@code deleted}, {@code truncated}).
 */
final class GapMeters {

	private final MeterRegistry registry;

	GapMeters(MeterRegistry registry, IntSupplier kept) {
		this.registry = registry;
		Gauge.builder("slotkeeper.gap.journals", kept::getAsInt)
			.description("Gap journals this instance keeps now: each reads a copy of its slot, which takes a"
					+ " replication slot on the server")
			.register(registry);
	}

	void closed(String target, String slot, Gap gap) {
		String outcome = (gap.incomplete() != null) ? "incomplete" : gap.exact() ? "exact" : "not_exact";
		Counter.builder("slotkeeper.slot.gap.journaled")
			.description("Gaps of recreated slots read from a journal, by outcome: exact (every key known),"
					+ " not_exact (a table read whole: truncate, no key, too many keys), incomplete")
			.tags("target", target, "slot", slot, "outcome", outcome)
			.register(this.registry)
			.increment();
		gap.tables().forEach((table, summary) -> {
			count(target, slot, table, "inserted", summary.inserted());
			count(target, slot, table, "updated", summary.updated());
			count(target, slot, table, "deleted", summary.deleted());
			count(target, slot, table, "truncated", summary.truncates().size());
		});
	}

	private void count(String target, String slot, String table, String change, int count) {
		if (count == 0) {
			return;
		}
		Counter.builder("slotkeeper.slot.gap.changes")
			.description("Keys changed in recreated slots' gaps as their journals read them, by net change; truncated"
					+ " counts truncates")
			.tags("target", target, "slot", slot, "table", table, "change", change)
			.register(this.registry)
			.increment(count);
	}

}
