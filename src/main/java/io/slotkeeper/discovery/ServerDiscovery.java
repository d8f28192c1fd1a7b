package io.slotkeeper.discovery;

import java.time.Clock;
import java.time.Duration;
import java.util.List;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;

import io.slotkeeper.audit.Auditor;
import io.slotkeeper.fleet.Fleet;
import io.slotkeeper.lanes.LaneWatch;
import io.slotkeeper.lanes.RepeatingTasks;

/**
 * Scans every configured server on its own schedule ({@link RepeatingTasks}: a server
 * that is down or hangs delays only its own scan) and exports
 * {@code slotkeeper_server_databases{server}}, how many of its databases are targets, and
 * {@code slotkeeper_server_databases_uncovered{server}}, how many should be but are not
 * for want of sessions.
 */
public class ServerDiscovery extends RepeatingTasks {

	private static final int QUICK_THREADS = 1;

	private static final int CONNECT_THREADS = 2;

	private static final int RETRY_THREADS = 2;

	private final List<ServerScan> scans;

	/**
	 * Creates the scans; nothing connects before start.
	 * @param fleet the fleet, with the configured servers, that discovered databases join
	 * @param auditor records each database that joins or leaves
	 * @param registry where the gauge goes
	 * @param clock the clock
	 */
	public ServerDiscovery(Fleet fleet, Auditor auditor, LaneWatch lanes, MeterRegistry registry, Clock clock) {
		super("discovery", longestScan(fleet), lanes, QUICK_THREADS, CONNECT_THREADS, RETRY_THREADS);
		this.scans = fleet.servers().stream().map((server) -> new ServerScan(server, fleet, auditor, clock)).toList();
		this.scans.forEach((scan) -> Gauge.builder("slotkeeper.server.databases", scan.databases(), Number::doubleValue)
			.description("Databases of a configured server that are targets: found holding a logical slot, or listed")
			.tag("server", scan.server().name())
			.register(registry));
		this.scans.forEach((scan) -> Gauge
			.builder("slotkeeper.server.databases.uncovered", scan.uncovered(), Number::doubleValue)
			.description("Databases of a configured server that should be targets but are not, for want of sessions"
					+ " (max-sessions)")
			.tag("server", scan.server().name())
			.register(registry));
	}

	private static Duration longestScan(Fleet fleet) {
		return fleet.servers()
			.stream()
			.map((server) -> server.properties().connection().pooledStatementBound())
			.max(Duration::compareTo)
			.orElse(Duration.ofSeconds(1));
	}

	@Override
	protected List<ServerScan> tasks() {
		return this.scans;
	}

	/**
	 * Every server's scan.
	 * @return the scans, in configuration order
	 */
	List<ServerScan> scans() {
		return this.scans;
	}

}
