package io.slotkeeper.slot;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

import io.slotkeeper.config.SlotPolicyProperties;
import io.slotkeeper.config.TargetProperties;
import io.slotkeeper.connect.ConnectorClient;
import io.slotkeeper.connect.ConnectorStatus;
import io.slotkeeper.target.TargetDataSources;
import io.slotkeeper.target.Targets;

/**
 * Reads slots: a node's listing or every node's, one slot, what a poll needs, and a slot's connector as Kafka Connect
 * sees it. Listings carry what the last poll concluded (acknowledgement, diagnosis, time to loss) and, on the
 * primary, the connector's status.
 */
class SlotReader {

	private final Targets targets;

	private final TargetDataSources dataSources;

	private final ConnectorClient connectors;

	private final SlotInsights insights;

	SlotReader(Targets targets, TargetDataSources dataSources, ConnectorClient connectors, SlotInsights insights) {
		this.targets = targets;
		this.dataSources = dataSources;
		this.connectors = connectors;
		this.insights = insights;
	}

	List<SlotView> list(String targetName, String node, SlotFilter filter) {
		TargetProperties primary = this.targets.get(targetName);
		List<String> nodes = SlotService.ALL_NODES.equals(node) ? primary.nodes() : List.of(SlotService.nodeName(node));
		List<SlotView> slots = new ArrayList<>();
		for (String each : nodes) {
			this.dataSources.withConnection(SlotService.node(primary, each), SlotRepository::list).stream()
				.filter(filter::matches)
				.map((slot) -> enrich(primary, each, slot))
				.forEach(slots::add);
		}
		return slots;
	}

	private SlotView enrich(TargetProperties primary, String node, SlotView slot) {
		if (!TargetProperties.PRIMARY.equals(node)) {
			return slot.withNode(node);
		}
		return withConnectorStatus(primary,
				slot.withNode(node).withInsight(this.insights.of(primary.name(), slot.slotName())));
	}

	/**
	 * What a poll reads, on one connection: the slots, the database the target connects to, and the walsenders'
	 * commands.
	 * @param target the target
	 * @return the poll
	 */
	Poll poll(TargetProperties target) {
		return this.dataSources.withConnection(target, (connection) -> new Poll(SlotRepository.list(connection),
				SlotRepository.currentDatabase(connection), SlotRepository.walsenderCommands(connection)));
	}

	/**
	 * One poll's reading.
	 * @param slots every slot of the server
	 * @param database the database the target connects to
	 * @param walsenderCommands the last command of each walsender, by process
	 */
	record Poll(List<SlotView> slots, String database, java.util.Map<Integer, String> walsenderCommands) {
	}

	SlotView get(String targetName, String node, String slot) {
		TargetProperties primary = this.targets.get(targetName);
		TargetProperties target = SlotService.node(primary, node);
		return enrich(primary, SlotService.nodeName(node), this.dataSources.withConnection(target, (connection) -> SlotService.require(connection, target, slot)));
	}

	ConnectorStatus connectorStatus(String targetName, String slot) {
		TargetProperties target = this.targets.get(targetName);
		return this.connectors.status(SlotService.connectorOf(target, slot).connector());
	}

	private SlotView withConnectorStatus(TargetProperties target, SlotView slot) {
		return target.slotPolicy(slot.slotName())
			.map(SlotPolicyProperties::connector)
			.filter(Objects::nonNull)
			.map((connector) -> slot.withConnector(this.connectors.status(connector)))
			.orElse(slot);
	}

}
