package io.slotkeeper.discovery;

import java.util.Arrays;
import java.util.List;

import io.slotkeeper.config.ConnectorDiscoveryProperties;
import io.slotkeeper.config.ManagedBy;
import io.slotkeeper.config.OnLost;
import io.slotkeeper.config.OnMissing;
import io.slotkeeper.config.OnOrphan;
import io.slotkeeper.config.ResnapshotProperties;
import io.slotkeeper.config.SlotPolicyProperties;
import io.slotkeeper.connect.FoundConnector;
import io.slotkeeper.fleet.Target;

/**
 * The policy a slot gets from the connector found consuming it, where its configuration
 * names none: healing as {@code connector-discovery.on-lost} says (where the target
 * heartbeats), a re-snapshot by signal where the connector has a signal table, of its
 * listed tables, at most {@value #RECREATIONS_PER_HOUR} recreations an hour, and restarts
 * of its failed tasks as {@code connector-discovery.on-failed} says, at most
 * {@value #RESTARTS_PER_HOUR} an hour.
 */
final class FoundPolicy {

	private static final int RECREATIONS_PER_HOUR = 2;

	private static final int RESTARTS_PER_HOUR = 6;

	private FoundPolicy() {
	}

	/**
	 * The policy.
	 * @param connector the connector found
	 * @param target the target of its database
	 * @param discovery the discovery's settings
	 * @return the slot's policy
	 */
	static SlotPolicyProperties of(FoundConnector connector, Target target, ConnectorDiscoveryProperties discovery) {
		boolean signals = discovery.resnapshot() == ResnapshotProperties.Mode.DEBEZIUM_SIGNAL
				&& connector.config().containsKey("signal.data.collection");
		boolean heals = discovery.onLost() == OnLost.RECREATE && target.properties().heartbeat().enabled();
		ResnapshotProperties resnapshot = ResnapshotProperties.of(
				signals ? ResnapshotProperties.Mode.DEBEZIUM_SIGNAL : ResnapshotProperties.Mode.NONE,
				discovery.resnapshotTables());
		List<String> included = included(connector.config().get("table.include.list"));
		if (signals && included != null) {
			// Its tables, as listed: the table counters are sampled for these only, not
			// for the whole database.
			resnapshot = new ResnapshotProperties(resnapshot.mode(), resnapshot.signalTable(), included,
					resnapshot.type(), resnapshot.tables(), resnapshot.recheckAfter(), resnapshot.updateColumns(),
					resnapshot.windowMargin(), resnapshot.deletes(), resnapshot.outboxTables());
		}
		return new SlotPolicyProperties(connector.slot(), connector.connector(), heals ? OnLost.RECREATE : OnLost.ALERT,
				OnMissing.ALERT, OnOrphan.ALERT, resnapshot, RECREATIONS_PER_HOUR, null, discovery.onFailed(),
				RESTARTS_PER_HOUR, ManagedBy.SLOT_KEEPER);
	}

	// A table.include.list of plain schema.table names; null when unset or when it has
	// patterns.
	private static List<String> included(String list) {
		if (list == null || list.isBlank()) {
			return null;
		}
		List<String> tables = Arrays.stream(list.split(",")).map(String::strip).toList();
		return tables.stream().allMatch((table) -> table.matches(ResnapshotProperties.TABLE)) ? tables : null;
	}

}
