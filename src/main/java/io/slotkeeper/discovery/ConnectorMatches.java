package io.slotkeeper.discovery;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

import io.slotkeeper.config.ConnectorDiscoveryProperties;
import io.slotkeeper.config.ServerProperties;
import io.slotkeeper.config.ServerUrls;
import io.slotkeeper.config.SlotPolicyProperties;
import io.slotkeeper.connect.FoundConnector;
import io.slotkeeper.fleet.Target;

/**
 * Which target's slot each found connector consumes: the target whose URL (or, for a
 * server's, one of the server's {@code aliases}) names the connector's
 * {@code database.hostname} and {@code database.port}, and whose database is its
 * {@code database.dbname}; the slot is its {@code slot.name}. Host names are compared as
 * Kubernetes resolves them ({@link ServiceNames}): a connector's short name in the
 * namespace of its {@code KafkaConnector} (or of its Kafka Connect worker's Service), a
 * target's in slot-keeper's own. A connector that matches no target is unprotected; one
 * that matches two targets, and two connectors of one slot, are used by nobody and said,
 * whatever order they were listed in.
 */
final class ConnectorMatches {

	private final Map<String, Map<String, SlotPolicyProperties>> policies = new LinkedHashMap<>();

	private final List<ConnectorMatch> matches = new ArrayList<>();

	private ConnectorMatches() {
	}

	/**
	 * Matches connectors to the targets' slots.
	 * @param targets the fleet's targets
	 * @param servers the configured servers, whose aliases name them too
	 * @param found the connectors listed
	 * @param discovery what a found connector's slot policy says where no configured one
	 * does
	 * @param ownNamespace the namespace slot-keeper runs in, where the targets' short
	 * host names are resolved; {@code null} outside a pod
	 * @return the matches
	 */
	static ConnectorMatches of(Collection<Target> targets, List<ServerProperties> servers, List<FoundConnector> found,
			ConnectorDiscoveryProperties discovery, String ownNamespace) {
		ConnectorMatches result = new ConnectorMatches();
		Map<String, Set<String>> names = new LinkedHashMap<>();
		targets.forEach((target) -> names.put(target.name(), endpoints(target, servers, ownNamespace)));
		List<ConnectorMatch> candidates = found.stream()
			.map((connector) -> result.candidate(connector, targets, names, ownNamespace))
			.toList();
		Map<String, List<String>> bySlot = new LinkedHashMap<>();
		candidates.stream()
			.filter(ConnectorMatch::used)
			.forEach((match) -> bySlot
				.computeIfAbsent(match.target() + "/" + match.connector().slot(), (slot) -> new ArrayList<>())
				.add(match.connector().name()));
		for (ConnectorMatch candidate : candidates) {
			result.matches.add(candidate.used() ? result.take(candidate, targets, bySlot, discovery) : candidate);
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
	List<ConnectorMatch> all() {
		return List.copyOf(this.matches);
	}

	// The one target a connector's database is, before its slot is looked at; used() says
	// it has one.
	private ConnectorMatch candidate(FoundConnector connector, Collection<Target> targets,
			Map<String, Set<String>> names, String ownNamespace) {
		String listed = connector.endpoint();
		if (listed == null) {
			return ConnectorMatch.unprotected(connector, "its database.hostname is not set");
		}
		if (listed.contains("${")) {
			return ConnectorMatch.unprotected(connector,
					"its database.hostname is a placeholder Kafka Connect resolves ("
							+ connector.config().get("database.hostname") + "): it cannot be matched to a server");
		}
		// Outside a pod the targets' short names cannot be placed in a namespace: short
		// names are then compared as
		// they are (the longer forms of a Service name still as one).
		String endpoint = ServiceNames.qualified(listed,
				(ownNamespace != null) ? namespaceOf(connector, ownNamespace) : null);
		List<Target> matching = targets.stream()
			.filter((candidate) -> names.get(candidate.name()).contains(endpoint))
			.filter((candidate) -> ServerUrls.database(candidate.properties().url())
				.orElse("")
				.equals(connector.database()))
			.sorted(Comparator.comparing(Target::name))
			.toList();
		if (matching.isEmpty()) {
			return ConnectorMatch.unprotected(connector, "no target is database '" + connector.database() + "' on "
					+ endpoint + " (a server's other names go in servers[].aliases)");
		}
		if (matching.size() > 1) {
			return ConnectorMatch
				.unprotected(connector, "database '" + connector.database() + "' on " + endpoint + " is more"
						+ " than one target (" + String.join(", ", matching.stream().map(Target::name).toList())
						+ "): it is used by none; name the host fully (service.namespace) in database.hostname or in"
						+ " the targets' URLs");
		}
		return new ConnectorMatch(connector, matching.get(0).name(), null, true);
	}

	private ConnectorMatch take(ConnectorMatch candidate, Collection<Target> targets, Map<String, List<String>> bySlot,
			ConnectorDiscoveryProperties discovery) {
		FoundConnector connector = candidate.connector();
		Target target = targets.stream().filter((t) -> t.name().equals(candidate.target())).findFirst().orElseThrow();
		Optional<String> configured = target.properties()
			.slotPolicy(connector.slot())
			.map(SlotPolicyProperties::connector)
			.map((own) -> own.name());
		if (configured.isPresent()) {
			return new ConnectorMatch(connector, target.name(), "slot '" + connector.slot() + "' has connector '"
					+ configured.get() + "' in its configured policy, which wins", false);
		}
		List<String> rivals = bySlot.get(target.name() + "/" + connector.slot());
		if (rivals.size() > 1) {
			return new ConnectorMatch(connector, target.name(),
					"slot '" + connector.slot() + "' is consumed by connectors "
							+ String.join(", ", rivals.stream().sorted().toList()) + ": none of them is used",
					false);
		}
		this.policies.computeIfAbsent(target.name(), (name) -> new LinkedHashMap<>())
			.put(connector.slot(), FoundPolicy.of(connector, target, discovery));
		return new ConnectorMatch(connector, target.name(), null, true);
	}

	// A KafkaConnector's short host is resolved in its namespace; a Kafka Connect
	// worker's, in its Service's.
	private static String namespaceOf(FoundConnector connector, String ownNamespace) {
		if (connector.connector().managedByStrimzi()) {
			return connector.connector().strimzi().namespace();
		}
		return (connector.connector().url() != null)
				? ServiceNames.namespaceOf(connector.connector().url(), ownNamespace) : null;
	}

	// A target's own hosts, and the aliases of every server that shares one of them,
	// short names resolved in
	// slot-keeper's own namespace.
	private static Set<String> endpoints(Target target, List<ServerProperties> servers, String ownNamespace) {
		Set<String> endpoints = new LinkedHashSet<>(ServerUrls.endpoints(target.properties().url()));
		for (ServerProperties server : servers) {
			List<String> own = ServerUrls.endpoints(server.url());
			if (own.stream().anyMatch(endpoints::contains)) {
				server.aliases().forEach((alias) -> endpoints.addAll(aliased(alias, own)));
			}
		}
		Set<String> qualified = new LinkedHashSet<>();
		endpoints.forEach((endpoint) -> qualified.add(ServiceNames.qualified(endpoint, ownNamespace)));
		return qualified;
	}

	// An alias without a port names the server on the ports its URL names.
	private static List<String> aliased(String alias, List<String> own) {
		if (alias.matches(".*:[0-9]{1,5}$")) {
			return List.of(ServerUrls.endpoint(alias));
		}
		return own.stream()
			.map((endpoint) -> ServerUrls.endpoint(alias + endpoint.substring(endpoint.lastIndexOf(':'))))
			.toList();
	}

}
