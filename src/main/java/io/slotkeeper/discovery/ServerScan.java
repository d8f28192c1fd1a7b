package io.slotkeeper.discovery;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.slotkeeper.audit.Auditor;
import io.slotkeeper.config.ServerProperties;
import io.slotkeeper.fleet.Fleet;
import io.slotkeeper.fleet.Server;
import io.slotkeeper.lanes.Lane;
import io.slotkeeper.lanes.RepeatingTask;
import io.slotkeeper.replication.ReplicationSlot;
import io.slotkeeper.replication.SlotPoll;
import io.slotkeeper.sessions.FailureDescription;

/**
 * One server's scan, every {@code slots-poll-interval}: which of its databases should be
 * targets (those listed, or those holding a logical slot, less the excluded), each new
 * one joining the fleet, each gone for {@code retire-after} leaving it. A scan that
 * cannot read the server changes nothing: targets are never retired because their server
 * is down.
 */
final class ServerScan implements RepeatingTask {

	private static final Logger logger = LoggerFactory.getLogger(ServerScan.class);

	private final Server server;

	private final Clock clock;

	private final ServerTargets targets;

	private final AtomicInteger databases = new AtomicInteger();

	private final AtomicInteger uncovered = new AtomicInteger();

	private SessionBudget budget;

	private Set<String> lastUncovered = Set.of();

	private volatile ScanState state = ScanState.NOT_YET;

	private volatile Lane lane = Lane.CONNECT;

	ServerScan(Server server, Fleet fleet, Auditor auditor, Clock clock) {
		this.server = server;
		this.targets = new ServerTargets(server, fleet, auditor);
		this.clock = clock;
	}

	Server server() {
		return this.server;
	}

	AtomicInteger databases() {
		return this.databases;
	}

	AtomicInteger uncovered() {
		return this.uncovered;
	}

	ScanState state() {
		return this.state;
	}

	@Override
	public String about() {
		return this.server.name();
	}

	@Override
	public Duration firstDelay() {
		return Duration.ZERO;
	}

	@Override
	public Lane lane() {
		return this.lane;
	}

	@Override
	public synchronized Duration run() {
		Instant now = this.clock.instant();
		ServerProperties properties = this.server.properties();
		Set<String> wanted = new LinkedHashSet<>();
		try {
			budget();
		}
		catch (RuntimeException ex) {
			return failed(ex, now);
		}
		if (properties.discovers()) {
			SlotPoll poll;
			try {
				poll = this.server.shared(SlotPoll::read);
			}
			catch (RuntimeException ex) {
				return failed(ex, now);
			}
			poll.slots().stream().filter(ReplicationSlot::logical).map(ReplicationSlot::database).forEach(wanted::add);
		}
		else {
			wanted.addAll(properties.databases());
		}
		wanted.removeAll(properties.exclude());
		this.targets.retireUnwanted(wanted, now);
		Set<String> over = new LinkedHashSet<>();
		Set<String> shared = this.targets.sharedNames(wanted);
		for (String database : wanted) {
			if (shared.contains(database)) {
				continue;
			}
			if (!this.targets.has(database) && this.targets.size() >= this.budget.databases()) {
				over.add(database);
			}
			else {
				this.targets.join(database);
			}
		}
		overBudget(over, wanted.size());
		this.databases.set(this.targets.size());
		this.uncovered.set(over.size());
		this.state = new ScanState(now, null, this.targets.size(), List.copyOf(over), this.budget.sessions(),
				wanted.size() + 1);
		this.lane = Lane.QUICK;
		return properties.slotsPollInterval();
	}

	private void budget() {
		if (this.budget == null) {
			Integer configured = this.server.properties().maxSessions();
			this.budget = (configured != null) ? new SessionBudget(configured, false)
					: this.server.node().withConnection(SessionBudget::read);
		}
	}

	private void overBudget(Set<String> over, int wanted) {
		if (!over.isEmpty() && !over.equals(this.lastUncovered)) {
			logger.warn("Server '{}' needs {} sessions (a heartbeat session per database and its polling session) but"
					+ " may have {}{}: databases {} are not heartbeated; raise slotkeeper.servers[].max-sessions",
					this.server.name(), wanted + 1, this.budget.sessions(),
					this.budget.derived() ? " (a tenth of its connections for non-superusers)" : "", over);
		}
		this.lastUncovered = Set.copyOf(over);
	}

	private Duration failed(Throwable ex, Instant now) {
		FailureDescription failure = FailureDescription.of(ex, now);
		if (this.state.error() == null) {
			logger.warn("Reading the slots of server '{}' failed: {}; its {} databases stay targets",
					this.server.name(), failure.message(), this.targets.size());
		}
		ScanState last = this.state;
		this.state = new ScanState(now, failure.message(), this.targets.size(), last.uncovered(), last.maxSessions(),
				last.sessionsNeeded());
		this.lane = Lane.RETRY;
		return this.server.properties().slotsPollInterval();
	}

	@Override
	public synchronized Duration escaped(Throwable failure) {
		return failed(failure, this.clock.instant());
	}

	/**
	 * What the last scan found.
	 *
	 * @param at when it ended, {@code null} before the first
	 * @param error why it could not read the server, {@code null} when it could
	 * @param databases how many of the server's databases are targets
	 * @param uncovered databases that should be targets but are not, for want of sessions
	 * @param maxSessions the session budget, 0 before it is known
	 * @param sessionsNeeded sessions the server's databases would need, with the polling
	 * session
	 */
	record ScanState(Instant at, String error, int databases, List<String> uncovered, int maxSessions,
			int sessionsNeeded) {

		static final ScanState NOT_YET = new ScanState(null, null, 0, List.of(), 0, 0);

	}

}
