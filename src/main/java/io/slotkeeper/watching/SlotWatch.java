package io.slotkeeper.watching;

import java.time.Clock;

import io.slotkeeper.connect.ConnectorClient;
import io.slotkeeper.failover.FailoverStates;
import io.slotkeeper.handover.HandoverLog;
import io.slotkeeper.settings.SettingsAudit;

/**
 * What every target's poll keeps for the API to read: conclusions, connectors' states and
 * configured slots as last seen (and missing).
 *
 * @param insights what polls concluded about each slot
 * @param connectors the connectors' states as polls checked them
 * @param sightings the configured slots as last seen, and those missing
 * @param failover whether each logical slot would survive a failover to the replicas
 * @param history the WAL each slot retained over the last hour
 * @param settings each target's server settings as last audited
 */
public record SlotWatch(SlotInsights insights, ConnectorStates connectors, SlotSightings sightings,
		FailoverStates failover, RetainedHistory history, SettingsAudit settings) {

	/**
	 * Empty state, for the application's wiring and for tests of what reads it.
	 * @param connectors the Kafka Connect client the connectors' states use
	 * @param clock when configurations were read
	 */
	public SlotWatch(ConnectorClient connectors, Clock clock) {
		this(connectors, new HandoverLog(), clock);
	}

	/**
	 * Empty state that reads the connectors' last handovers from a log.
	 * @param connectors the Kafka Connect client the connectors' states use
	 * @param handovers the last handover of each connector
	 * @param clock when configurations were read
	 */
	public SlotWatch(ConnectorClient connectors, HandoverLog handovers, Clock clock) {
		this(new SlotInsights(), new ConnectorStates(connectors, handovers, clock), new SlotSightings(),
				new FailoverStates(), new RetainedHistory(), new SettingsAudit());
	}

	/**
	 * Forgets everything kept of a target that left the fleet, so that a retired database
	 * costs nothing and one that joins again starts afresh.
	 * @param target the target's name
	 */
	void forget(String target) {
		this.insights.forget(target);
		this.connectors.forget(target);
		this.sightings.forget(target);
		this.failover.forget(target);
		this.history.forget(target);
		this.settings.forget(target);
	}

}
