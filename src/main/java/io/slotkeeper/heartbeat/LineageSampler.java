package io.slotkeeper.heartbeat;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.List;
import java.util.Set;
import java.util.function.Supplier;
import java.util.stream.Collectors;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.slotkeeper.config.SlotPolicyProperties;
import io.slotkeeper.fleet.Target;
import io.slotkeeper.lineage.SlotLineages;
import io.slotkeeper.lineage.TableCounters;

/**
 * Reads a target's slot lineage again every {@value #LINEAGE_BEATS} intervals (and on a
 * session's first beat), and samples the table write counters its re-snapshots and gap
 * counts need, on the heartbeat's session that every instance holds anyway: a recreate
 * made by another instance shows here without a session of its own. A failure is logged
 * and tried again when due: the beat goes on.
 */
final class LineageSampler {

	private static final Logger logger = LoggerFactory.getLogger(LineageSampler.class);

	private final Target target;

	LineageSampler(Target target) {
		this.target = target;
	}

	void readIfDue(Supplier<Connection> connection) {
		SlotLineages lineages = this.target.lineages();
		if (!lineages.due(this.target.properties().heartbeat().cadence().lineageEvery())) {
			return;
		}
		try {
			lineages.read(connection.get());
		}
		catch (SQLException ex) {
			logger.debug("The slot lineage of target '{}' could not be read: {}", this.target.name(), ex.getMessage());
		}
		sampleTableWrites(connection);
	}

	// As often as the lineage and on the same session: a re-snapshot of only the changed
	// tables, and the count of a
	// gap's deletes, need no other.
	private void sampleTableWrites(Supplier<Connection> connection) {
		List<SlotPolicyProperties> changedOnly = this.target.slots()
			.policies()
			.stream()
			.filter(TableCounters::sampledFor)
			.toList();
		if (changedOnly.isEmpty()) {
			this.target.tableCounters().clear();
			return;
		}
		boolean listed = changedOnly.stream().allMatch((policy) -> policy.resnapshot().collections() != null);
		Set<String> tables = listed ? changedOnly.stream()
			.flatMap((policy) -> policy.resnapshot().collections().stream())
			.collect(Collectors.toSet()) : null;
		try {
			this.target.tableCounters()
				.sample(connection.get(), changedOnly.stream().map(SlotPolicyProperties::name).toList(), tables);
		}
		catch (SQLException ex) {
			logger.debug("The table counters of target '{}' could not be read: {}", this.target.name(),
					ex.getMessage());
		}
	}

}
