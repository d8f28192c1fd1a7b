package io.slotkeeper.discovery;

import java.time.Instant;
import java.util.List;
import java.util.Map;

import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.media.Schema;
import io.swagger.v3.oas.annotations.tags.Tag;

import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;

/**
 * The Debezium connectors found in Kafka Connect and Strimzi resources, and the slot each consumes.
 */
@RestController
@Tag(name = "connectors", description = "Debezium connectors found and the slots they consume")
class ConnectorsController {

	private final ConnectorDiscovery discovery;

	ConnectorsController(ConnectorDiscovery discovery) {
		this.discovery = discovery;
	}

	@GetMapping("/api/v1/connectors")
	@Operation(summary = "Debezium PostgreSQL connectors found, each with the target whose slot it consumes",
			description = "Listed from slotkeeper.connector-discovery's Kafka Connect clusters and Strimzi namespaces."
					+ " A connector with no target is unprotected: nothing heartbeats or heals its slot. Only the"
					+ " settings that name its slot are shown, never its password.")
	DiscoveredConnectors connectors() {
		List<DiscoveredConnectors.Source> sources = this.discovery.listings().stream()
			.map((listing) -> new DiscoveredConnectors.Source(listing.source().describe(), listing.state().listedAt(),
					listing.state().error(), listing.state().connectors().size()))
			.toList();
		List<DiscoveredConnectors.Connector> connectors = this.discovery.matches().stream()
			.map((match) -> new DiscoveredConnectors.Connector(match.connector().name(), match.connector().source(),
					match.connector().state(), match.connector().endpoint(), match.connector().database(),
					match.connector().slot(), match.target(), match.used(), match.unprotected(), match.problem(),
					match.connector().config()))
			.toList();
		return new DiscoveredConnectors(sources, connectors);
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
		 * @param error why its last listing failed; its connectors are then those it listed before
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
		 * @param used whether it is that slot's connector (a second connector of a slot is not)
		 * @param unprotected whether its slot is on no target
		 * @param problem why it is not used, {@code null} when it is
		 * @param settings the settings read from its configuration (never its password)
		 */
		// Named apart from the overview's Connector: two schemas of one name collapse into one in the contract.
		@Schema(name = "DiscoveredConnector")
		record Connector(String name, String source, String state, String endpoint, String database, String slot,
				String target, boolean used, boolean unprotected, String problem, Map<String, String> settings) {
		}

	}

}
