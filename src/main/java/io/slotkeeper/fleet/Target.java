package io.slotkeeper.fleet;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;

import io.slotkeeper.config.ConnectorProperties;
import io.slotkeeper.config.SlotPolicyProperties;
import io.slotkeeper.config.TargetProperties;
import io.slotkeeper.problem.ProblemException;
import io.slotkeeper.problem.ProblemKind;

/**
 * One target at run time: its configuration, its primary and replicas as nodes, its slot policies, whether this
 * instance owns it, and the heartbeats written into it.
 */
public final class Target implements AutoCloseable {

	/**
	 * The node selector that means the primary and every replica.
	 */
	public static final String ALL_NODES = "all";

	private final TargetProperties properties;

	private final Node primary;

	private final Map<String, Node> replicas = new LinkedHashMap<>();

	private final Ownership ownership;

	private final BeatLog beats = new BeatLog();

	private final SlotLineages lineages = new SlotLineages();

	private final TableCounters tableCounters = new TableCounters();

	private final List<Consumer<ServerChange>> listeners = new CopyOnWriteArrayList<>();

	private final ServerDatabase origin;

	private final Reading reading;

	private volatile ServerChange lastFailover;

	private volatile Map<String, SlotPolicyProperties> found = Map.of();

	private volatile boolean foundAll = true;

	Target(TargetProperties properties, NodeConnector connector, Instance instance, OwnershipPlan plan,
			Presences presences, ServerDatabase origin, Reading reading) {
		this.properties = properties;
		this.origin = origin;
		this.reading = reading;
		this.primary = new Node(properties.name(), TargetProperties.PRIMARY, properties.url(), properties.username(),
				properties.password(), properties.connection(), connector, this::changed);
		this.ownership = new Ownership(new Rendezvous(properties.name(), instance, properties.heartbeat().interval(),
				plan, presences, this.primary));
		properties.replicas()
			.forEach((replica) -> this.replicas.put(replica.name(), new Node(properties.name(), replica.name(),
					replica.url(), replica.username(), replica.password(), properties.connection(), connector,
					this::changed)));
	}

	/**
	 * The target's name.
	 * @return the name
	 */
	public String name() {
		return this.properties.name();
	}

	/**
	 * The configured server and database this target was found as.
	 * @return them, empty for a target configured on its own
	 */
	public Optional<ServerDatabase> origin() {
		return Optional.ofNullable(this.origin);
	}

	/**
	 * The database the target is, where known without a session: a discovered target's, or the one a configured
	 * target's URL names.
	 * @return the database's name
	 */
	public Optional<String> database() {
		return (this.origin != null) ? Optional.of(this.origin.database())
				: Optional.ofNullable(this.reading).map(Reading::database);
	}

	/**
	 * Reads the target's server, or hands out a reading of it that another target made within nine tenths of this
	 * one's poll interval: a discovered target shares its configured server's (failures too), a configured one shares
	 * with the targets configured on the same server as the same role, reading through its own primary when a new
	 * reading is due.
	 * @param <T> what the read returns; every target of a server must pass the same work
	 * @param work the read, of what the whole server shows (such as {@code pg_replication_slots})
	 * @param now whether the reading must be made now (after a change, or for an operator who waits for it); the
	 * other targets then share it
	 * @return the reading
	 * @throws ProblemException when the server cannot be reached or refuses
	 */
	public <T> T readServer(SqlWork<T> work, boolean now) {
		if (this.origin != null) {
			return this.origin.server().shared(work, now);
		}
		return (this.reading != null)
				? this.reading.shared().read(this.primary, work, this.properties.slotsPollInterval(), now)
				: this.primary.withConnection(work);
	}

	/**
	 * The reading a configured target shares, and the database its URL names.
	 *
	 * @param shared the reading of the target's server
	 * @param database the database
	 */
	record Reading(SharedReading shared, String database) {
	}

	/**
	 * The target's configuration.
	 * @return the configuration
	 */
	public TargetProperties properties() {
		return this.properties;
	}

	/**
	 * The primary, where heartbeats go.
	 * @return the primary
	 */
	public Node primary() {
		return this.primary;
	}

	/**
	 * One node by name.
	 * @param name {@code primary}, a replica's name, or {@code null} for the primary
	 * @return the node
	 * @throws ProblemException ({@link ProblemKind#NODE_NOT_FOUND}) when the target has no such replica
	 */
	public Node node(String name) {
		if (name == null || TargetProperties.PRIMARY.equals(name)) {
			return this.primary;
		}
		Node replica = this.replicas.get(name);
		if (replica == null) {
			throw new ProblemException(ProblemKind.NODE_NOT_FOUND, "Target '" + name() + "' has no replica '" + name
					+ "' (nodes: primary and slotkeeper.targets[].replicas).")
				.with("target", name());
		}
		return replica;
	}

	/**
	 * The nodes a selector names.
	 * @param selector {@value #ALL_NODES} for every node, else as {@link #node(String)}
	 * @return the nodes, primary first
	 */
	public List<Node> nodes(String selector) {
		if (!ALL_NODES.equals(selector)) {
			return List.of(node(selector));
		}
		List<Node> nodes = new ArrayList<>(List.of(this.primary));
		nodes.addAll(this.replicas.values());
		return nodes;
	}

	/**
	 * The policy of a slot, if it has one: the configured one, with what a discovered connector of the slot brings
	 * where it says nothing ({@link SlotPolicyProperties#over}), or the one made for a discovered connector.
	 * @param slot the slot's name
	 * @return the policy
	 */
	public Optional<SlotPolicyProperties> policy(String slot) {
		SlotPolicyProperties discovered = this.found.get(slot);
		Optional<SlotPolicyProperties> configured = this.properties.slotPolicy(slot);
		return (discovered != null) ? Optional.of(configured.map((own) -> own.over(discovered)).orElse(discovered))
				: configured;
	}

	/**
	 * Every slot's policy, as {@link #policy(String)} gives it: the configured slots' first.
	 * @return the policies
	 */
	public List<SlotPolicyProperties> policies() {
		List<SlotPolicyProperties> policies = new ArrayList<>();
		this.properties.slots().forEach((own) -> policies.add(policy(own.name()).orElseThrow()));
		this.found.values().stream()
			.filter((discovered) -> this.properties.slotPolicy(discovered.name()).isEmpty())
			.forEach(policies::add);
		return policies;
	}

	/**
	 * Replaces the policies made for the connectors discovered consuming this target's slots.
	 * @param policies by slot, each with its discovered connector
	 * @param complete whether every source of connectors has been listed since start, so that a connector not among
	 * them is known not to consume the target's slots
	 */
	public void discovered(Map<String, SlotPolicyProperties> policies, boolean complete) {
		this.found = Map.copyOf(policies);
		this.foundAll = complete;
	}

	/**
	 * Whether a slot's connector, if it has none, is known to have none: always for configured connectors, and for
	 * discovered ones once every source has been listed (after a restart while Kafka Connect is down, not yet).
	 * @return whether the policies are complete
	 */
	public boolean connectorsKnown() {
		return this.foundAll;
	}

	/**
	 * Whether a slot's connector is a discovered one rather than one its configured policy names.
	 * @param slot the slot's name
	 * @return whether the connector was found by discovery
	 */
	public boolean connectorDiscovered(String slot) {
		return this.found.containsKey(slot)
				&& this.properties.slotPolicy(slot).map((own) -> own.connector() == null).orElse(true);
	}

	/**
	 * The connector that consumes a slot, if one is configured or discovered.
	 * @param slot the slot's name
	 * @return the connector
	 */
	public Optional<ConnectorProperties> connectorOf(String slot) {
		return policy(slot).map(SlotPolicyProperties::connector);
	}

	/**
	 * The connector that consumes a slot.
	 * @param slot the slot's name
	 * @return the connector
	 * @throws ProblemException ({@link ProblemKind#CONNECTOR_NOT_CONFIGURED}) when none is configured or discovered
	 */
	public ConnectorProperties connector(String slot) {
		return connectorOf(slot).orElseThrow(() -> new ProblemException(ProblemKind.CONNECTOR_NOT_CONFIGURED,
				"Slot '" + slot + "' of target '" + name() + "' has no connector in slotkeeper.targets[].slots,"
				+ " and none was discovered.")
			.with("target", name())
			.with("slot", slot));
	}

	/**
	 * Its slots' lineage: which epoch each slot is in, as recorded by the recreates.
	 * @return the lineage
	 */
	public SlotLineages lineages() {
		return this.lineages;
	}

	/**
	 * Its database's table write counters, sampled for the slots whose re-snapshot reads only changed tables.
	 * @return the samples
	 */
	public TableCounters tableCounters() {
		return this.tableCounters;
	}

	/**
	 * Whether this instance owns the target.
	 * @return the ownership, written by the heartbeat
	 */
	public Ownership ownership() {
		return this.ownership;
	}

	/**
	 * The heartbeats this instance wrote lately.
	 * @return the beat log, written by the heartbeat
	 */
	public BeatLog beats() {
		return this.beats;
	}

	/**
	 * Calls a listener whenever another server answers for one of the target's nodes.
	 * @param listener the listener; it runs on the thread that opened the session, and must not block it long
	 */
	public void onServerChange(Consumer<ServerChange> listener) {
		this.listeners.add(listener);
	}

	/**
	 * The last failover of the primary this instance noticed.
	 * @return the change, empty when none was noticed since start
	 */
	public Optional<ServerChange> lastFailover() {
		return Optional.ofNullable(this.lastFailover);
	}

	private void changed(ServerChange change) {
		if (change.node().primary() && change.failover()) {
			this.lastFailover = change;
		}
		this.listeners.forEach((listener) -> listener.accept(change));
	}

	/**
	 * Closes every node's pool.
	 */
	@Override
	public void close() {
		nodes(ALL_NODES).forEach(Node::close);
	}

	@Override
	public String toString() {
		return name();
	}

}
