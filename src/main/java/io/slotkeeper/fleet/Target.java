package io.slotkeeper.fleet;

import java.util.Optional;

import io.slotkeeper.config.TargetProperties;
import io.slotkeeper.lineage.SlotLineages;
import io.slotkeeper.lineage.TableCounters;
import io.slotkeeper.problem.ProblemException;
import io.slotkeeper.sessions.Node;
import io.slotkeeper.sessions.NodeConnector;
import io.slotkeeper.sessions.SqlWork;

/**
 * One target at run time: its configuration, its primary and replicas
 * ({@link TargetNodes}), its slot policies ({@link SlotPolicies}), whether this instance
 * owns it, and the heartbeats written into it.
 */
public final class Target implements AutoCloseable {

	/**
	 * The node selector that means the primary and every replica.
	 */
	public static final String ALL_NODES = "all";

	private final TargetProperties properties;

	private final TargetNodes nodes;

	private final Ownership ownership;

	private final BeatLog beats = new BeatLog();

	private final SlotLineages lineages = new SlotLineages();

	private final TableCounters tableCounters = new TableCounters();

	private final ServerDatabase origin;

	private final Reading reading;

	private final SlotPolicies slots;

	Target(TargetProperties properties, NodeConnector connector, Instance instance, OwnershipPlan plan,
			Presences presences, ServerDatabase origin, Reading reading) {
		this.properties = properties;
		this.origin = origin;
		this.reading = reading;
		this.slots = new SlotPolicies(properties);
		this.nodes = new TargetNodes(properties, connector);
		this.ownership = new Ownership(new Rendezvous(properties.name(), instance, properties.heartbeat().cadence(),
				plan, presences, this.nodes.primary()));
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
	 * The database the target is, where known without a session: a discovered target's,
	 * or the one a configured target's URL names.
	 * @return the database's name
	 */
	public Optional<String> database() {
		return (this.origin != null) ? Optional.of(this.origin.database())
				: Optional.ofNullable(this.reading).map(Reading::database);
	}

	/**
	 * Reads the target's server, or hands out a reading of it that another target made
	 * within nine tenths of this one's poll interval: a discovered target shares its
	 * configured server's (failures too), a configured one shares with the targets
	 * configured on the same server as the same role, reading through its own primary
	 * when a new reading is due.
	 * @param <T> what the read returns; every target of a server must pass the same work
	 * @param work the read, of what the whole server shows (such as
	 * {@code pg_replication_slots})
	 * @param now whether the reading must be made now (after a change, or for an operator
	 * who waits for it); the other targets then share it
	 * @return the reading
	 * @throws ProblemException when the server cannot be reached or refuses
	 */
	public <T> T readServer(SqlWork<T> work, boolean now) {
		if (this.origin != null) {
			return this.origin.server().shared(work, now);
		}
		return (this.reading != null)
				? this.reading.shared().read(this.nodes.primary(), work, this.properties.slotsPollInterval(), now)
				: this.nodes.primary().withConnection(work);
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
		return this.nodes.primary();
	}

	/**
	 * Its primary and replicas.
	 * @return the nodes
	 */
	public TargetNodes nodes() {
		return this.nodes;
	}

	/**
	 * Its slots' policies: the configured ones and those made for the connectors
	 * discovered consuming its slots.
	 * @return the policies
	 */
	public SlotPolicies slots() {
		return this.slots;
	}

	/**
	 * Its slots' lineage: which epoch each slot is in, as recorded by the recreates.
	 * @return the lineage
	 */
	public SlotLineages lineages() {
		return this.lineages;
	}

	/**
	 * Its database's table write counters, sampled for the slots whose re-snapshot reads
	 * only changed tables.
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
	 * Closes every node's pool.
	 */
	@Override
	public void close() {
		this.nodes.close();
	}

	@Override
	public String toString() {
		return name();
	}

}
