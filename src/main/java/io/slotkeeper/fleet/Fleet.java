package io.slotkeeper.fleet;

import java.time.Clock;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;

import io.slotkeeper.config.ConnectionProperties;
import io.slotkeeper.config.ServerProperties;
import io.slotkeeper.config.TargetProperties;
import io.slotkeeper.problem.ProblemException;
import io.slotkeeper.problem.ProblemKind;
import io.slotkeeper.sessions.NodeConnector;

/**
 * Every target at run time, by name: the configured ones in configuration order, then the
 * databases of configured servers as they are found. The one registry of targets;
 * features {@linkplain #watch(FleetListener) watch} it to start and stop their work per
 * target, so that a configured target and a discovered one are served by the same code.
 */
public final class Fleet implements AutoCloseable {

	private final Map<String, Target> byName = new LinkedHashMap<>();

	private final Map<String, Server> servers = new LinkedHashMap<>();

	private final List<FleetListener> listeners = new CopyOnWriteArrayList<>();

	private final Instance instance;

	private final Clock clock;

	private final NodeConnector connector;

	private final OwnershipPlan plan;

	private final Presences presences = new Presences();

	/**
	 * Builds the configured targets and servers; nothing connects until a node is used.
	 * @param targets the configured targets, names unique
	 * @param servers the configured servers, names unique; their databases join as they
	 * are found
	 * @param connector opens every session
	 * @param instance this instance, among those sharing the targets
	 * @param clock the clock the servers' shared readings tell their age by
	 */
	public Fleet(List<TargetProperties> targets, List<ServerProperties> servers, NodeConnector connector,
			Instance instance, Clock clock) {
		this.instance = instance;
		this.clock = clock;
		this.connector = connector;
		this.plan = new OwnershipPlan(targets.stream().map(TargetProperties::name).toList());
		Map<ServerEndpoint, SharedReading> readings = new HashMap<>();
		targets.forEach((target) -> this.byName.put(target.name(), configuredTarget(target, readings)));
		servers.forEach((server) -> this.servers.put(server.name(), new Server(server, connector, clock)));
	}

	private Target newTarget(TargetProperties properties, ServerDatabase origin) {
		return new Target(properties, this.connector, this.instance, this.plan, this.presences, origin, null);
	}

	// Targets configured on one server as one role share a reading of its slots, as a
	// configured server's databases do.
	private Target configuredTarget(TargetProperties properties, Map<ServerEndpoint, SharedReading> readings) {
		Target.Reading reading = ServerEndpoint.of(properties)
			.map((located) -> new Target.Reading(
					readings.computeIfAbsent(located.endpoint(), (endpoint) -> new SharedReading(this.clock, false)),
					located.database()))
			.orElse(null);
		return new Target(properties, this.connector, this.instance, this.plan, this.presences, null, reading);
	}

	/**
	 * This instance, among those sharing the targets.
	 * @return its identity
	 */
	public Instance instance() {
		return this.instance;
	}

	/**
	 * One target.
	 * @param name its name
	 * @return the target
	 * @throws ProblemException ({@link ProblemKind#TARGET_NOT_FOUND}) when none has that
	 * name
	 */
	public Target get(String name) {
		return find(name).orElseThrow(() -> new ProblemException(ProblemKind.TARGET_NOT_FOUND,
				"No target named '" + name + "' is configured in slotkeeper.targets or found on slotkeeper.servers.")
			.with("target", name));
	}

	/**
	 * One target, if the fleet has it.
	 * @param name its name
	 * @return the target
	 */
	public synchronized Optional<Target> find(String name) {
		return Optional.ofNullable(this.byName.get(name));
	}

	/**
	 * Every target, configured ones first, then discovered ones in the order they joined.
	 * @return the targets
	 */
	public synchronized List<Target> all() {
		return List.copyOf(this.byName.values());
	}

	/**
	 * The configured servers.
	 * @return the servers, in configuration order
	 */
	public List<Server> servers() {
		return List.copyOf(this.servers.values());
	}

	/**
	 * The connection settings of every configured target and server: what bounds the
	 * sessions of any target, now or found later.
	 * @return the settings
	 */
	public List<ConnectionProperties> connections() {
		List<ConnectionProperties> connections = new ArrayList<>();
		all().stream()
			.filter((target) -> target.origin().isEmpty())
			.forEach((target) -> connections.add(target.properties().connection()));
		this.servers.values().forEach((server) -> connections.add(server.properties().connection()));
		return connections;
	}

	/**
	 * Whether targets can join or leave after start: some servers are configured.
	 * @return {@code true} when the fleet changes at run time
	 */
	public boolean changes() {
		return !this.servers.isEmpty();
	}

	/**
	 * Tells a listener of every target now and of every one that joins or leaves from now
	 * on.
	 * @param listener the listener
	 */
	public synchronized void watch(FleetListener listener) {
		this.listeners.add(listener);
		this.byName.values().forEach(listener::joined);
	}

	/**
	 * Adds a database of a configured server to the fleet and tells every listener.
	 * @param origin the server and database
	 * @param properties the target's configuration
	 * @return the target
	 * @throws IllegalStateException when a target of that name is in the fleet already
	 */
	public synchronized Target join(ServerDatabase origin, TargetProperties properties) {
		if (this.byName.containsKey(properties.name())) {
			throw new IllegalStateException("A target named '" + properties.name() + "' is in the fleet already");
		}
		Target target = newTarget(properties, origin);
		this.byName.put(target.name(), target);
		this.plan.add(target.name());
		this.listeners.forEach((listener) -> listener.joined(target));
		return target;
	}

	/**
	 * Takes a discovered target out of the fleet, tells every listener (last watching
	 * first), then closes it.
	 * @param name the target's name
	 * @return whether the fleet had it
	 */
	public boolean leave(String name) {
		Target target;
		synchronized (this) {
			target = this.byName.get(name);
			if (target == null || target.origin().isEmpty()) {
				return false;
			}
			this.byName.remove(name);
			this.plan.remove(name);
		}
		// Outside the lock: a listener may wait for its work in flight on the target, and
		// the fleet stays readable.
		List<FleetListener> reversed = new ArrayList<>(this.listeners);
		Collections.reverse(reversed);
		reversed.forEach((listener) -> listener.left(target));
		target.close();
		return true;
	}

	/**
	 * Closes every node's pool and every server's session.
	 */
	@Override
	public synchronized void close() {
		this.byName.values().forEach(Target::close);
		this.servers.values().forEach(Server::close);
	}

}
