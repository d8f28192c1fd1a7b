package io.slotkeeper.discovery;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.slotkeeper.audit.Auditor;
import io.slotkeeper.fleet.Fleet;
import io.slotkeeper.fleet.Server;
import io.slotkeeper.fleet.ServerDatabase;

/**
 * The targets a server's scans made of its databases: each joined to the fleet under its
 * folded name (unless a configured target has that name, or another database folds to it
 * too), and retired once its database has been unwanted for {@code retire-after}; each
 * join and retirement logged and audited.
 */
final class ServerTargets {

	private static final Logger logger = LoggerFactory.getLogger(ServerTargets.class);

	private final Server server;

	private final Fleet fleet;

	private final Auditor auditor;

	private final Map<String, String> targets = new LinkedHashMap<>();

	private final Map<String, Instant> goneSince = new LinkedHashMap<>();

	private final Set<String> clashes = new HashSet<>();

	private final Set<String> sharedNamesSaid = new HashSet<>();

	ServerTargets(Server server, Fleet fleet, Auditor auditor) {
		this.server = server;
		this.fleet = fleet;
		this.auditor = auditor;
	}

	boolean has(String database) {
		return this.targets.containsKey(database);
	}

	int size() {
		return this.targets.size();
	}

	/**
	 * Retires the targets whose databases have not been wanted for {@code retire-after}.
	 * @param wanted the databases that should be targets now
	 * @param now the scan's time
	 */
	void retireUnwanted(Set<String> wanted, Instant now) {
		this.goneSince.keySet().removeIf(wanted::contains);
		for (String database : Set.copyOf(this.targets.keySet())) {
			if (!wanted.contains(database)) {
				retireIfGoneLongEnough(database, now);
			}
		}
	}

	// Databases whose names fold to one target name (a checksum collision): none of them
	// is taken, whichever came
	// first, so that no two instances can give one database two names or one name two
	// databases.
	Set<String> sharedNames(Set<String> wanted) {
		Map<String, List<String>> byName = new LinkedHashMap<>();
		wanted.forEach((database) -> byName
			.computeIfAbsent(TargetNames.of(this.server.name(), database), (name) -> new ArrayList<>())
			.add(database));
		Set<String> shared = new HashSet<>();
		byName.forEach((name, databases) -> {
			if (databases.size() > 1) {
				shared.addAll(databases);
				if (this.sharedNamesSaid.add(name)) {
					logger.warn("Databases {} of server '{}' are not heartbeated: each would be target '{}'; list all"
							+ " but one in the server's exclude", databases, this.server.name(), name);
				}
			}
		});
		return shared;
	}

	void join(String database) {
		if (this.targets.containsKey(database)) {
			return;
		}
		String name = TargetNames.of(this.server.name(), database);
		if (this.fleet.find(name).isPresent()) {
			if (this.clashes.add(database)) {
				logger.warn(
						"Database '{}' of server '{}' is not heartbeated: its target name '{}' is a configured"
								+ " target's; list it in the server's exclude or rename the target",
						database, this.server.name(), name);
			}
			return;
		}
		this.fleet.join(new ServerDatabase(this.server, database), this.server.properties().target(name, database));
		this.targets.put(database, name);
		logger.info("Database '{}' of server '{}' joined the fleet as target '{}'", database, this.server.name(), name);
		this.auditor.recordOutcome(Auditor.SELF, "target.discovered", name, null,
				Auditor.parameters("server", this.server.name(), "database", database),
				new Auditor.Summary("done", 200, "database '" + database + "' holds a logical slot"
						+ (this.server.properties().discovers() ? "" : " or is listed"), Map.of(), null));
	}

	private void retireIfGoneLongEnough(String database, Instant now) {
		Instant since = this.goneSince.computeIfAbsent(database, (gone) -> now);
		Duration grace = this.server.properties().retireAfter();
		if (now.isBefore(since.plus(grace))) {
			return;
		}
		String name = this.targets.remove(database);
		this.goneSince.remove(database);
		this.fleet.leave(name);
		logger.info("Target '{}' left the fleet: database '{}' of server '{}' has held no logical slot since {}", name,
				database, this.server.name(), since);
		this.auditor.recordOutcome(Auditor.SELF, "target.retired", name, null,
				Auditor.parameters("server", this.server.name(), "database", database, "since", since.toString()),
				new Auditor.Summary("done", 200,
						"no logical slot in database '" + database + "' for " + grace.toSeconds() + " s", Map.of(),
						null));
	}

}
