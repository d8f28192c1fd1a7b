package io.slotkeeper.slot;

import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import io.slotkeeper.config.ConnectorProperties;
import io.slotkeeper.connect.ConnectorClient;
import io.slotkeeper.connect.ConnectorLifecycle;
import io.slotkeeper.connect.ConnectorStatus;
import io.slotkeeper.fleet.Target;
import io.slotkeeper.handover.HandoverLog;
import io.slotkeeper.replication.ReplicationSlot;
import io.slotkeeper.replication.SlotFilter;
import io.slotkeeper.replication.SlotRepository;
import io.slotkeeper.replication.SlotView;
import io.slotkeeper.sessions.FailureDescription;
import io.slotkeeper.sessions.Node;
import io.slotkeeper.watching.SlotSnapshot;
import io.slotkeeper.watching.SlotWatch;

/**
 * Reads slots for the API: a node's listing or every node's, one slot, and a slot's
 * connector as Kafka Connect sees it now. Slots of the primary carry what the last poll
 * concluded and their connector's state as that poll checked it (with {@code checkedAt}),
 * so that a slow Kafka Connect never holds a listing (one slot's connector view asks it
 * now, with its offsets and last handover); the primary's listing also shows the
 * configured slots it does not have, as missing, with what was last seen of them.
 */
public class SlotReader {

	private final ConnectorClient connectors;

	private final SlotWatch watch;

	private final ConnectorLifecycle lifecycle;

	private final HandoverLog handovers;

	private final Clock clock;

	SlotReader(ConnectorClient connectors, SlotWatch watch, HandoverLog handovers, Clock clock) {
		this.clock = clock;
		this.connectors = connectors;
		this.watch = watch;
		this.lifecycle = new ConnectorLifecycle(connectors);
		this.handovers = handovers;
	}

	// Every node's listing is read when one node is down, exactly when failover triage
	// needs it: that node has an
	// entry saying why.
	List<SlotView> list(Target target, String node, SlotFilter filter) {
		List<SlotView> slots = new ArrayList<>();
		boolean every = "all".equals(node);
		for (Node each : target.nodes().select(node)) {
			List<ReplicationSlot> read;
			try {
				read = each.withConnection(SlotRepository::list);
			}
			catch (RuntimeException ex) {
				if (!every) {
					throw ex;
				}
				slots.add(SlotView.unreadable(each.name(), FailureDescription.of(ex, this.clock.instant())));
				continue;
			}
			// A server's database lists its own slots only, as its polls are dealt them.
			read.stream()
				.filter(filter::matches)
				.filter((slot) -> target.origin().map((origin) -> slot.in(origin.database())).orElse(true))
				.map((slot) -> enrich(target, each, slot))
				.forEach(slots::add);
			if (each.primary()) {
				missing(target, each).filter((view) -> filter.matches(view.slot())).forEach(slots::add);
			}
		}
		return slots;
	}

	/**
	 * The primary's slots as its last poll read them, with what is concluded of them now
	 * (insight, failover readiness, connector state as last checked) and the configured
	 * slots it did not have: no query, so that a view of the whole fleet costs no round
	 * trip to any target.
	 * @param target the target
	 * @param snapshot its last poll
	 * @return the slots, the missing ones last
	 */
	public List<SlotView> polled(Target target, SlotSnapshot snapshot) {
		Node primary = target.primary();
		List<SlotView> slots = new ArrayList<>();
		snapshot.slots().forEach((view) -> slots.add(enrich(target, primary, view.slot())));
		missing(target, primary).forEach(slots::add);
		return slots;
	}

	private Stream<SlotView> missing(Target target, Node primary) {
		return this.watch.sightings()
			.missing(target.name())
			.stream()
			.map((missing) -> SlotView.missing(primary.name(), missing.name(), missing.lastSeen()));
	}

	SlotView get(Target target, String node, String slot) {
		Node where = target.nodes().named(node);
		return enrich(target, where,
				where.withConnection((connection) -> SlotRepository.require(connection, where, slot)));
	}

	SlotConnectorView connectorStatus(Target target, String slot) {
		ConnectorProperties connector = target.slots().connector(slot);
		return new SlotConnectorView(this.connectors.status(connector), this.lifecycle.lastKnownOffsets(connector),
				this.handovers.last(connector.name()).orElse(null));
	}

	private SlotView enrich(Target target, Node node, ReplicationSlot slot) {
		SlotView view = SlotView.of(node.name(), slot);
		if (!node.primary()) {
			return view.withOrphan(this.watch.failover().orphan(target.name(), node.name(), slot.slotName()));
		}
		SlotView concluded = view.withInsight(this.watch.insights().of(target.name(), slot.slotName()))
			.withFailover(this.watch.failover().of(target.name(), slot.slotName()));
		return target.slots()
			.connectorOf(slot.slotName())
			.map((connector) -> concluded.withConnector(
					this.watch.connectors()
						.of(target.name(), slot.slotName())
						.orElseGet(() -> ConnectorStatus.notCheckedYet(connector.name())),
					target.slots().connectorDiscovered(slot.slotName()),
					this.watch.connectors().audit(target.name(), slot.slotName()).orElse(null)))
			.orElse(concluded);
	}

}
