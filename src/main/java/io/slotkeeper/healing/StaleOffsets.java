package io.slotkeeper.healing;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;

import io.slotkeeper.connect.ConnectorStatus;
import io.slotkeeper.fleet.Target;
import io.slotkeeper.replication.ReplicationSlot;
import io.slotkeeper.support.SteadyGauge;
import io.slotkeeper.watching.ConnectorStates;

/**
 * The slots of one target whose connector's task failed on a stored offset older than the
 * slot, which it never gets past by itself: exported by the target's owner as
 * {@code slotkeeper_connector_stale_offset{target,slot}} (1 or 0 for every slot on the
 * primary that has a policy: 0 from the first poll, and always 0 without a connector),
 * shown in the {@code slots} health, and handed to healing. A slot that is lost is not
 * counted: its own alert and heal cover it.
 */
final class StaleOffsets {

	private final SteadyGauge gauge;

	private volatile Map<String, Stale> stale = Map.of();

	StaleOffsets(MeterRegistry registry) {
		this.gauge = new SteadyGauge("slotkeeper.connector.stale.offset",
				"1 when the slot's connector has a task FAILED"
						+ " because its stored offset is older than the slot (Debezium: no longer available on the server), 0"
						+ " when not",
				null, registry);
	}

	/**
	 * Finds them from the connectors' last states and a poll's slots.
	 * @param target the target
	 * @param connectors the connectors' last states
	 * @param slots the primary's slots
	 * @return by slot name, the stale ones
	 */
	Map<String, Stale> update(Target target, ConnectorStates connectors, List<ReplicationSlot> slots) {
		Map<String, Stale> stale = new TreeMap<>();
		Map<Tags, Number> rows = new LinkedHashMap<>();
		for (ReplicationSlot slot : slots) {
			if (target.slots().policy(slot.slotName()).isEmpty()) {
				continue;
			}
			ConnectorStatus status = connectors.of(target.name(), slot.slotName()).orElse(null);
			boolean failed = status != null && status.staleOffset() && !slot.invalidated()
					&& slot.confirmedFlushLsn() != null;
			if (failed) {
				stale.put(slot.slotName(), new Stale(slot, status.summary()));
			}
			rows.put(Tags.of("target", target.name(), "slot", slot.slotName()), failed ? 1 : 0);
		}
		this.stale = Map.copyOf(stale);
		this.gauge.set(rows);
		return stale;
	}

	/**
	 * The stale ones, as last found, for the {@code slots} health.
	 * @return by slot, the connector's state in a few words
	 */
	Map<String, String> summaries() {
		Map<String, String> summaries = new TreeMap<>();
		this.stale.forEach((slot, found) -> summaries.put(slot, found.summary()));
		return summaries;
	}

	/**
	 * A slot whose connector failed on a stale offset.
	 *
	 * @param slot the slot as the poll read it
	 * @param summary the connector's state in a few words, the failed task's trace
	 * included
	 */
	record Stale(ReplicationSlot slot, String summary) {
	}

}
