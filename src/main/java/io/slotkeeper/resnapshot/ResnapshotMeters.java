package io.slotkeeper.resnapshot;

import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;

import io.slotkeeper.fleet.Target;

/**
 * What re-snapshots are counted as:
 * {@code slotkeeper_slot_resnapshots_total{target,slot,outcome}} for the signals,
 * {@code slotkeeper_slot_resnapshot_tables_total{target,slot,decision}} for the tables
 * they read and skipped.
 */
final class ResnapshotMeters {

	private final MeterRegistry registry;

	private final Set<String> primed = ConcurrentHashMap.newKeySet();

	ResnapshotMeters(MeterRegistry registry) {
		this.registry = registry;
	}

	void count(Target target, String slot, String outcome) {
		signals(target.name(), slot, outcome).increment();
	}

	// At 0 before the first re-snapshot: an alert on the counter's increase then sees the
	// first one too.
	void prime(Target target, String slot) {
		if (this.primed.add(target.name() + "/" + slot)) {
			List.of("sent", "skipped", "failed").forEach((outcome) -> signals(target.name(), slot, outcome));
		}
	}

	private Counter signals(String target, String slot, String outcome) {
		return Counter.builder("slotkeeper.slot.resnapshots")
			.description("Re-snapshot signals slot-keeper sent (sent), could not send (skipped), failed to send"
					+ " (failed), or needed none as no table changed (none-changed)")
			.tags("target", target, "slot", slot, "outcome", outcome)
			.register(this.registry);
	}

	// How many tables re-snapshots read, and how many they left out as unchanged.
	void countTables(Target target, String slot, Resnapshot sent) {
		int skipped = (sent.tables() != null) ? sent.tables().skipped().size() : 0;
		int read = (sent.signalId() != null) ? sent.collections().size() : 0;
		for (Map.Entry<String, Integer> decision : Map.of("read", read, "skipped", skipped).entrySet()) {
			Counter.builder("slotkeeper.slot.resnapshot.tables")
				.description("Tables re-snapshots asked Debezium to read again (read) or left out as unchanged"
						+ " while the slot was lost (skipped)")
				.tags("target", target.name(), "slot", slot, "decision", decision.getKey())
				.register(this.registry)
				.increment(decision.getValue());
		}
	}

}
