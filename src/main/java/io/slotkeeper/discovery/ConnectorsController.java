package io.slotkeeper.discovery;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.media.Schema;
import io.swagger.v3.oas.annotations.tags.Tag;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;

import io.slotkeeper.config.ConnectorProperties;
import io.slotkeeper.connect.ConnectorAudit;
import io.slotkeeper.connect.ConnectorSettingsJudge;
import io.slotkeeper.connect.ConnectorStatus;
import io.slotkeeper.connect.FoundConnector;
import io.slotkeeper.fleet.Fleet;
import io.slotkeeper.fleet.Target;
import io.slotkeeper.settings.SettingFinding;
import io.slotkeeper.watching.ConnectorStates;
import io.slotkeeper.watching.SlotWatch;

/**
 * The Debezium connectors slot-keeper knows, configured in a slot's policy or found in
 * Kafka Connect and Strimzi resources, the slot each consumes and what the connector
 * settings audit found in each configuration.
 */
@RestController
@Tag(name = "connectors", description = "Debezium connectors found and the slots they consume")
class ConnectorsController {

	private final ConnectorDiscovery discovery;

	private final Fleet fleet;

	private final ConnectorStates states;

	ConnectorsController(ConnectorDiscovery discovery, Fleet fleet, SlotWatch watch) {
		this.discovery = discovery;
		this.fleet = fleet;
		this.states = watch.connectors();
	}

	@GetMapping("/api/v1/connectors")
	@Operation(
			summary = "Debezium PostgreSQL connectors slot-keeper knows, each with the target whose slot it consumes"
					+ " and its settings audit",
			description = "The connectors configured in the targets' slot policies, then those listed from"
					+ " slotkeeper.connector-discovery's Kafka Connect clusters and Strimzi namespaces. A connector"
					+ " with no target is unprotected: nothing heartbeats or heals its slot. Each has the findings of"
					+ " the connector settings audit: its configuration against what slot-keeper does to its slot."
					+ " Only the settings judged are shown, never its password.")
	DiscoveredConnectors connectors() {
		List<DiscoveredConnectors.Source> sources = this.discovery.listings()
			.stream()
			.map((listing) -> new DiscoveredConnectors.Source(listing.source().describe(), listing.state().listedAt(),
					listing.state().error(), listing.state().connectors().size()))
			.toList();
		List<DiscoveredConnectors.Connector> connectors = new ArrayList<>();
		for (Target target : this.fleet.all()) {
			target.slots()
				.policies()
				.stream()
				.filter((policy) -> policy.connector() != null && !target.slots().connectorDiscovered(policy.name()))
				.forEach((policy) -> connectors.add(configured(target, policy.name(), policy.connector())));
		}
		this.discovery.matches()
			.stream()
			.map((match) -> new DiscoveredConnectors.Connector(match.connector().name(), match.connector().source(),
					match.connector().state(), match.connector().endpoint(), match.connector().database(),
					match.connector().slot(), match.target(), match.used(), match.unprotected(), match.problem(),
					match.connector().config(), findings(match)))
			.forEach(connectors::add);
		return new DiscoveredConnectors(sources, connectors);
	}

	private DiscoveredConnectors.Connector configured(Target target, String slot, ConnectorProperties connector) {
		ConnectorAudit audit = this.states.audit(target.name(), slot).orElse(null);
		FoundConnector read = new FoundConnector("configured (target " + target.name() + ")", connector,
				(audit != null) ? audit.settings() : Map.of(),
				this.states.of(target.name(), slot).map(ConnectorStatus::state).orElse(null));
		return new DiscoveredConnectors.Connector(read.name(), read.source(), read.state(), read.endpoint(),
				read.database(), slot, target.name(), true, false,
				(audit != null) ? audit.error()
						: "its configuration is not read yet: the first slot poll has not" + " asked Kafka Connect",
				read.config(), (audit != null) ? audit.findings() : List.of());
	}

	// A used connector was judged with its target's slot by the slot poll; any other only
	// on what it does alone.
	private List<SettingFinding> findings(ConnectorMatch match) {
		if (match.used()) {
			return this.states.audit(match.target(), match.connector().slot())
				.map(ConnectorAudit::findings)
				.orElse(List.of());
		}
		return ConnectorSettingsJudge.judge(match.connector().config(),
				ConnectorSettingsJudge.Slot.unprotected(match.connector().slot()));
	}

	/**
	 * The connectors found.
	 *
	 * @param sources each source and its last listing
	 * @param connectors each Debezium PostgreSQL connector found
	 */
	record DiscoveredConnectors(List<Source> sources, List<Connector> connectors) {

		/**
		 * One source.
		 *
		 * @param source what it is
		 * @param listedAt when it last answered, {@code null} when it never has
		 * @param error why its last listing failed; its connectors are then those it
		 * listed before
		 * @param connectors how many Debezium PostgreSQL connectors it lists
		 */
		record Source(String source, Instant listedAt, String error, int connectors) {
		}

		/**
		 * One connector.
		 *
		 * @param name its name in Kafka Connect
		 * @param source where it was found
		 * @param state its state as the source reported it
		 * @param endpoint its {@code database.hostname:database.port}
		 * @param database its {@code database.dbname}
		 * @param slot its {@code slot.name}
		 * @param target the target whose slot it consumes, {@code null} when none
		 * @param used whether it is that slot's connector (a second connector of a slot
		 * is not)
		 * @param unprotected whether its slot is on no target
		 * @param problem why it is not used, {@code null} when it is
		 * @param settings the settings read from its configuration (never its password)
		 * @param findings what the connector settings audit found in them, the most
		 * severe first
		 */
		// Named apart from the overview's Connector: two schemas of one name collapse
		// into one in the contract.
		@Schema(name = "DiscoveredConnector")
		record Connector(String name, String source, String state, String endpoint, String database, String slot,
				String target, boolean used, boolean unprotected, String problem, Map<String, String> settings,
				List<SettingFinding> findings) {
		}

	}

}
