package io.slotkeeper.discovery;

import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

import io.slotkeeper.config.ConnectorDiscoveryProperties;
import io.slotkeeper.config.OnLost;
import io.slotkeeper.config.OnMissing;
import io.slotkeeper.config.OnOrphan;
import io.slotkeeper.config.ResnapshotProperties;
import io.slotkeeper.config.ServerProperties;
import io.slotkeeper.config.ServerUrls;
import io.slotkeeper.config.SlotPolicyProperties;
import io.slotkeeper.connect.FoundConnector;
import io.slotkeeper.fleet.Target;

/**
 * Which target's slot each found connector consumes: the target whose URL (or, for a server's, one of the server's
 * {@code aliases}) names the connector's {@code database.hostname} and {@code database.port}, and whose database is
 * its {@code database.dbname}; the slot is its {@code slot.name}. A connector that matches no target is unprotected;
 * a second connector of a slot already matched is reported, not used.
 */
final class ConnectorMatches {

	private static final int RECREATIONS_PER_HOUR = 2;

	private final Map<String, Map<String, SlotPolicyProperties>> policies = new LinkedHashMap<>();

	private final List<Match> matches = new ArrayList<>();

	private ConnectorMatches() {
	}

	/**
	 * Matches connectors to the targets' slots.
	 * @param targets the fleet's targets
	 * @param servers the configured servers, whose aliases name them too
	 * @param found the connectors listed
	 * @param discovery what a found connector's slot policy says where no configured one does
	 * @return the matches
	 */
	static ConnectorMatches of(Collection<Target> targets, List<ServerProperties> servers, List<FoundConnector> found,
			ConnectorDiscoveryProperties discovery) {
		ConnectorMatches result = new ConnectorMatches();
		Map<String, Set<String>> names = new LinkedHashMap<>();
		targets.forEach((target) -> names.put(target.name(), endpoints(target, servers)));
		for (FoundConnector connector : found) {
			result.matches.add(result.match(connector, targets, names, discovery));
		}
		return result;
	}

	/**
	 * The policies made for found connectors, by target and slot.
	 * @param target the target's name
	 * @return by slot
	 */
	Map<String, SlotPolicyProperties> policies(String target) {
		return this.policies.getOrDefault(target, Map.of());
	}

	/**
	 * Every found connector with the target it was matched to, or why none.
	 * @return the matches, in the order found
	 */
	List<Match> all() {
		return List.copyOf(this.matches);
	}

	private Match match(FoundConnector connector, Collection<Target> targets, Map<String, Set<String>> names,
			ConnectorDiscoveryProperties discovery) {
		String endpoint = connector.endpoint();
		if (endpoint == null) {
			return Match.unprotected(connector, "its database.hostname is not set");
		}
		if (endpoint.contains("${")) {
			return Match.unprotected(connector, "its database.hostname is a placeholder Kafka Connect resolves ("
					+ connector.config().get("database.hostname") + "): it cannot be matched to a server");
		}
		Optional<Target> target = targets.stream()
			.filter((candidate) -> names.get(candidate.name()).contains(endpoint))
			.filter((candidate) -> ServerUrls.database(candidate.properties().url()).orElse("")
				.equals(connector.database()))
			.findFirst();
		if (target.isEmpty()) {
			return Match.unprotected(connector, "no target is database '" + connector.database() + "' on " + endpoint
					+ " (a server's other names go in servers[].aliases)");
		}
		Optional<String> configured = target.get().properties().slotPolicy(connector.slot())
			.map(SlotPolicyProperties::connector)
			.map((own) -> own.name());
		if (configured.isPresent()) {
			return new Match(connector, target.get().name(), "slot '" + connector.slot() + "' has connector '"
					+ configured.get() + "' in its configured policy, which wins", false);
		}
		Map<String, SlotPolicyProperties> slots = this.policies.computeIfAbsent(target.get().name(),
				(name) -> new LinkedHashMap<>());
		SlotPolicyProperties taken = slots.get(connector.slot());
		if (taken != null) {
			return new Match(connector, target.get().name(), "slot '" + connector.slot() + "' is already consumed by"
					+ " connector '" + taken.connector().name() + "': this one is not used", false);
		}
		slots.put(connector.slot(), policy(connector, target.get(), discovery));
		return new Match(connector, target.get().name(), null, true);
	}

	private static SlotPolicyProperties policy(FoundConnector connector, Target target,
			ConnectorDiscoveryProperties discovery) {
		boolean signals = discovery.resnapshot() == ResnapshotProperties.Mode.DEBEZIUM_SIGNAL
				&& connector.config().containsKey("signal.data.collection");
		boolean heals = discovery.onLost() == OnLost.RECREATE && target.properties().heartbeat().enabled();
		return new SlotPolicyProperties(connector.slot(), connector.connector(), heals ? OnLost.RECREATE : OnLost.ALERT,
				OnMissing.ALERT, OnOrphan.ALERT, ResnapshotProperties.of(signals
						? ResnapshotProperties.Mode.DEBEZIUM_SIGNAL : ResnapshotProperties.Mode.NONE,
						discovery.resnapshotTables()), RECREATIONS_PER_HOUR, null);
	}

	// A target's own hosts, and the aliases of every server that shares one of them.
	private static Set<String> endpoints(Target target, List<ServerProperties> servers) {
		Set<String> endpoints = new LinkedHashSet<>(ServerUrls.endpoints(target.properties().url()));
		for (ServerProperties server : servers) {
			List<String> own = ServerUrls.endpoints(server.url());
			if (own.stream().anyMatch(endpoints::contains)) {
				server.aliases().forEach((alias) -> endpoints.addAll(aliased(alias, own)));
			}
		}
		return endpoints;
	}

	// An alias without a port names the server on the ports its URL names.
	private static List<String> aliased(String alias, List<String> own) {
		if (alias.matches(".*:[0-9]{1,5}$")) {
			return List.of(ServerUrls.endpoint(alias));
		}
		return own.stream().map((endpoint) -> ServerUrls.endpoint(alias + endpoint.substring(endpoint.lastIndexOf(':'))))
			.toList();
	}

	/**
	 * One found connector and where it was matched.
	 *
	 * @param connector the connector
	 * @param target the target whose slot it consumes, {@code null} when none
	 * @param problem why it is not used, {@code null} when it is
	 * @param used whether it is its slot's connector
	 */
	record Match(FoundConnector connector, String target, String problem, boolean used) {

		static Match unprotected(FoundConnector connector, String why) {
			return new Match(connector, null, why, false);
		}

		boolean unprotected() {
			return this.target == null;
		}

	}

}
