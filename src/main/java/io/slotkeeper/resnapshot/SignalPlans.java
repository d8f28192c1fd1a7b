package io.slotkeeper.resnapshot;

import java.util.Arrays;
import java.util.List;
import java.util.Map;

import io.slotkeeper.config.ConnectorProperties;
import io.slotkeeper.config.ResnapshotProperties;
import io.slotkeeper.connect.ConnectorLifecycle;
import io.slotkeeper.fleet.Target;
import io.slotkeeper.problem.ProblemException;
import io.slotkeeper.replication.SlotProblems;

/**
 * What a slot's re-snapshot signal names: the signal table and the tables, from the
 * slot's {@code resnapshot} settings, else from its connector's configuration
 * ({@code signal.data.collection}, {@code table.include.list}, plain names only), the
 * signal table itself left out.
 */
final class SignalPlans {

	private final ConnectorLifecycle lifecycle;

	SignalPlans(ConnectorLifecycle lifecycle) {
		this.lifecycle = lifecycle;
	}

	/**
	 * What a re-snapshot of a slot's tables would send.
	 * @throws ProblemException when it could not be sent: what is missing
	 */
	Signal plan(Target target, String slot) {
		ResnapshotProperties settings = settings(target, slot);
		Map<String, Object> config = connectorConfig(target, slot, settings);
		String table = (settings.signalTable() != null) ? settings.signalTable()
				: (String) config.get("signal.data.collection");
		if (table == null || !table.matches(ResnapshotProperties.TABLE)) {
			throw unsupported(target, slot,
					(table == null)
							? "no signal table: set resnapshot.signal-table or the"
									+ " connector's signal.data.collection"
							: "the signal table '" + table + "' is not a plain schema.table");
		}
		List<String> collections = (settings.collections() != null) ? settings.collections()
				: included((String) config.get("table.include.list"), target, slot);
		collections = collections.stream().filter((collection) -> !collection.equals(table)).toList();
		if (collections.isEmpty()) {
			throw unsupported(target, slot,
					"no tables to snapshot: set resnapshot.collections or the connector's" + " table.include.list");
		}
		return new Signal(table, collections, settings.type().name().toLowerCase());
	}

	static ResnapshotProperties settings(Target target, String slot) {
		return target.slots()
			.policy(slot)
			.map((policy) -> policy.resnapshot())
			.orElse(ResnapshotProperties.of(ResnapshotProperties.Mode.NONE));
	}

	private Map<String, Object> connectorConfig(Target target, String slot, ResnapshotProperties settings) {
		if (settings.signalTable() != null && settings.collections() != null) {
			return Map.of();
		}
		ConnectorProperties connector = target.slots().connectorOf(slot).orElse(null);
		if (connector == null) {
			return Map.of();
		}
		ConnectorLifecycle.Answer answer = this.lifecycle.config(connector);
		if (!answer.ok()) {
			throw unsupported(target, slot, "the connector's configuration could not be read: " + answer.error());
		}
		return answer.object();
	}

	private static List<String> included(String list, Target target, String slot) {
		if (list == null || list.isBlank()) {
			return List.of();
		}
		List<String> tables = Arrays.stream(list.split(",")).map(String::strip).toList();
		List<String> patterns = tables.stream().filter((table) -> !table.matches(ResnapshotProperties.TABLE)).toList();
		if (!patterns.isEmpty()) {
			throw unsupported(target, slot, "table.include.list has patterns or names that are not plain schema.table ("
					+ String.join(", ", patterns) + "): list the tables in resnapshot.collections");
		}
		return tables;
	}

	private static ProblemException unsupported(Target target, String slot, String detail) {
		return SlotProblems.unsupported(target.primary(), slot, "No re-snapshot signal: " + detail + ".");
	}

}
