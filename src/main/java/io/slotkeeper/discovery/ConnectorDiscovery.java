package io.slotkeeper.discovery;

import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.slotkeeper.config.ConnectorDiscoveryProperties;
import io.slotkeeper.config.ServerProperties;
import io.slotkeeper.connect.ConnectorSource;
import io.slotkeeper.connect.FoundConnector;
import io.slotkeeper.fleet.Fleet;
import io.slotkeeper.fleet.FleetListener;
import io.slotkeeper.fleet.Target;
import io.slotkeeper.lanes.LaneWatch;
import io.slotkeeper.lanes.RepeatingTasks;

/**
 * Lists every source of connectors on its own schedule (a Kafka Connect that is down or
 * hangs delays only its own listing) and, after each listing, matches all connectors
 * found to the fleet's slots ({@link ConnectorMatches}): each target is given the
 * policies of its slots' connectors. A source that cannot be listed keeps its last
 * listing, so that a heal while Kafka Connect is down still hands the slot over to its
 * connector once it answers. Exports {@code slotkeeper_connectors_discovered} (connectors
 * that are their slot's) and {@code slotkeeper_connectors_unprotected} (Debezium
 * connectors whose slot is on no target), and warns once of each unprotected connector.
 */
public class ConnectorDiscovery extends RepeatingTasks implements FleetListener {

	private static final Logger logger = LoggerFactory.getLogger(ConnectorDiscovery.class);

	private final List<SourceListing> listings;

	private final Fleet fleet;

	private final List<ServerProperties> servers;

	private final ConnectorDiscoveryProperties settings;

	private final String ownNamespace;

	private final AtomicInteger used = new AtomicInteger();

	private final AtomicInteger unprotected = new AtomicInteger();

	private final Set<String> warned = new HashSet<>();

	private Set<String> unprotectedBefore = Set.of();

	/**
	 * Creates the listings; nothing is called before start.
	 * @param sources where connectors are listed
	 * @param fleet the targets whose slots they are matched to
	 * @param settings how often, and what a found connector's policy says
	 * @param ownNamespace the namespace slot-keeper runs in, {@code null} outside a pod
	 * @param registry where the gauges go
	 * @param clock the clock
	 */
	public ConnectorDiscovery(List<ConnectorSource> sources, Fleet fleet, ConnectorDiscoveryProperties settings,
			String ownNamespace, LaneWatch lanes, MeterRegistry registry, Clock clock) {
		super("connectors", Duration.ofSeconds(10), lanes, 1, 1, 1);
		this.fleet = fleet;
		this.ownNamespace = ownNamespace;
		this.servers = fleet.servers().stream().map((server) -> server.properties()).toList();
		this.settings = settings;
		this.listings = sources.stream()
			.map((source) -> new SourceListing(source, settings.interval(), clock, this::listed))
			.toList();
		Gauge.builder("slotkeeper.connectors.discovered", this.used, Number::doubleValue)
			.description("Debezium PostgreSQL connectors found in Kafka Connect or Strimzi resources that are their"
					+ " slot's connector")
			.register(registry);
		Gauge.builder("slotkeeper.connectors.unprotected", this.unprotected, Number::doubleValue)
			.description("Debezium PostgreSQL connectors found whose slot is on no target: nothing heartbeats or heals"
					+ " it")
			.register(registry);
	}

	// A listing makes calls per source and per connector, each up to its timeout: a hung
	// API must not look like a hung
	// lane before those calls have had their time, so the bound is generous.
	@Override
	protected Duration roundBound() {
		Duration generous = Duration.ofMinutes(10);
		return (this.settings.interval().compareTo(generous) > 0) ? this.settings.interval() : generous;
	}

	@Override
	protected List<SourceListing> tasks() {
		return this.listings;
	}

	/**
	 * Gives a target that joined the policies of the connectors already found for its
	 * slots. Called with the fleet's lock held: it reads only what the last listing left.
	 * @param target the target
	 */
	@Override
	public void joined(Target target) {
		// Matched among all targets, so that a connector two targets could be is given to
		// neither.
		List<Target> targets = new ArrayList<>(this.fleet.all());
		if (!targets.contains(target)) {
			targets.add(target);
		}
		ConnectorMatches now = ConnectorMatches.of(targets, this.servers, found(), this.settings, this.ownNamespace);
		target.slots().discovered(now.policies(target.name()), complete());
	}

	/**
	 * Every connector of the last listings matched to the fleet as it is now (a database
	 * found since the last listing included), with the target whose slot it consumes, or
	 * why none.
	 * @return the matches
	 */
	List<ConnectorMatch> matches() {
		return ConnectorMatches.of(this.fleet.all(), this.servers, found(), this.settings, this.ownNamespace).all();
	}

	/**
	 * Each source's last listing.
	 * @return the listings, in configuration order
	 */
	List<SourceListing> listings() {
		return this.listings;
	}

	private synchronized void listed() {
		List<Target> targets = this.fleet.all();
		ConnectorMatches now = ConnectorMatches.of(targets, this.servers, found(), this.settings, this.ownNamespace);
		boolean complete = complete();
		targets.forEach((target) -> target.slots().discovered(now.policies(target.name()), complete));
		this.used.set((int) now.all().stream().filter(ConnectorMatch::used).count());
		this.unprotected.set((int) now.all().stream().filter(ConnectorMatch::unprotected).count());
		Set<String> unprotectedNow = new HashSet<>();
		for (ConnectorMatch match : now.all()) {
			String key = match.connector().source() + "/" + match.connector().name() + "/" + match.target();
			// Right after start a server's databases may not have joined yet: unprotected
			// is said when it lasts.
			if (match.unprotected()) {
				unprotectedNow.add(key);
			}
			if ((!match.unprotected() || this.unprotectedBefore.contains(key)) && this.warned.add(key)) {
				said(match);
			}
		}
		this.unprotectedBefore = unprotectedNow;
	}

	private static void said(ConnectorMatch match) {
		FoundConnector connector = match.connector();
		if (match.used()) {
			logger.info("Connector '{}' ({}) consumes slot '{}' of target '{}'", connector.name(), connector.source(),
					connector.slot(), match.target());
		}
		else if (match.unprotected()) {
			logger.warn("Debezium connector '{}' ({}) is unprotected: {}; nothing heartbeats or heals its slot '{}'",
					connector.name(), connector.source(), match.problem(), connector.slot());
		}
		else {
			logger.warn("Connector '{}' ({}) of target '{}' is not used: {}", connector.name(), connector.source(),
					match.target(), match.problem());
		}
	}

	private List<FoundConnector> found() {
		List<FoundConnector> all = new ArrayList<>();
		this.listings.forEach((listing) -> all.addAll(listing.state().connectors()));
		return all;
	}

	private boolean complete() {
		return this.listings.stream().allMatch((listing) -> listing.state().listedAt() != null);
	}

	/**
	 * How many connectors are each kind, for tests.
	 * @return {@code used} and {@code unprotected}
	 */
	Map<String, Integer> counts() {
		return Map.of("used", this.used.get(), "unprotected", this.unprotected.get());
	}

}
