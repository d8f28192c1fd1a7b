package io.slotkeeper.slot;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;

import io.slotkeeper.api.ApiException;
import io.slotkeeper.config.SlotPolicyProperties;
import io.slotkeeper.config.TargetProperties;
import io.slotkeeper.connect.ConnectorClient;
import io.slotkeeper.connect.ConnectorOutcome;
import io.slotkeeper.target.AdvisoryLocks;
import io.slotkeeper.target.Lsn;
import io.slotkeeper.target.TargetDataSources;
import io.slotkeeper.target.Targets;

/**
 * The replication-slot runbook with its safety rules. Every change is first planned from what the server shows now
 * (refusing an active slot, a healthy slot's recreate, a missing privilege, an option the server's version lacks),
 * then either answered as a plan ({@code dryRun}) or run step by step.
 */
public class SlotService {

	/**
	 * The {@code node} that lists the slots of the primary and every replica.
	 */
	static final String ALL_NODES = "all";

	private final Targets targets;

	private final TargetDataSources dataSources;

	private final ConnectorClient connectors;

	private final MeterRegistry registry;


	/**
	 * Creates the service.
	 * @param targets the configured targets
	 * @param dataSources connections to them
	 * @param connectors the Kafka Connect client
	 * @param registry where recreations are counted
	 */
	SlotService(Targets targets, TargetDataSources dataSources, ConnectorClient connectors, MeterRegistry registry) {
		this.targets = targets;
		this.dataSources = dataSources;
		this.connectors = connectors;
		this.registry = registry;
	}

	static String nodeName(String node) {
		return (node != null) ? node : TargetProperties.PRIMARY;
	}

	static TargetProperties node(TargetProperties primary, String node) {
		return primary.node(node).orElseThrow(() -> SlotProblem.noNode(primary.name(), node));
	}

	Changed<SlotView> create(String targetName, String node, CreateSlotRequest request, boolean dryRun) {
		TargetProperties primary = this.targets.get(targetName);
		TargetProperties target = node(primary, node);
		SlotSpec spec = request.toSpec(target.name());
		return change(target, "slot.create", spec.name(), dryRun, (connection) -> {
			SlotSteps.requireSlotPrivilege(connection, target);
			if (SlotRepository.find(connection, spec.name()).isPresent()) {
				throw SlotProblem.exists(target.name(), spec.name());
			}
			SlotSteps.requireSupported(connection, target, spec);
			return List.of(SlotSteps.createStep(spec, nudge(primary, target)));
		}, (connection) -> require(connection, target, spec.name()).withNode(nodeName(node)));
	}

	Changed<Void> drop(String targetName, String node, String slot, boolean force, boolean dryRun) {
		TargetProperties target = node(this.targets.get(targetName), node);
		return change(target, "slot.drop", slot, dryRun, (connection) -> {
			SlotSteps.requireSlotPrivilege(connection, target);
			SlotView current = require(connection, target, slot);
			List<SlotSteps.Step> steps = new ArrayList<>(SlotSteps.release(target, current, force));
			steps.add(SlotSteps.dropStep(slot, current));
			return steps;
		}, (connection) -> null);
	}

	Changed<RecreateResult> recreate(String targetName, String node, String slot, boolean force, boolean dryRun) {
		TargetProperties primary = this.targets.get(targetName);
		TargetProperties target = node(primary, node);
		SlotView[] old = new SlotView[1];
		Changed<SlotView> recreated = change(target, "slot.recreate", slot, dryRun, (connection) -> {
			SlotSteps.requireSlotPrivilege(connection, target);
			SlotView current = require(connection, target, slot);
			if (!current.invalidated() && !force) {
				throw SlotProblem.healthy(target.name(), current);
			}
			if (Boolean.TRUE.equals(current.temporary())) {
				throw SlotProblem.unsupported(target.name(), slot, "Slot '" + slot + "' is temporary: it belongs to"
						+ " its session and cannot be recreated by another.");
			}
			String database = SlotRepository.currentDatabase(connection);
			if (current.logical() && !Objects.equals(current.database(), database)) {
				throw SlotProblem.unsupported(target.name(), slot, "Slot '" + slot + "' belongs to database '"
						+ current.database() + "' but target '" + target.name() + "' connects to '" + database
						+ "'; a logical slot is created in the database of its session: configure a target for '"
						+ current.database() + "'.");
			}
			SlotSpec spec = SlotSpec.of(current);
			SlotSteps.requireSupported(connection, target, spec);
			old[0] = current;
			List<SlotSteps.Step> steps = new ArrayList<>(SlotSteps.release(target, current, force));
			steps.add(SlotSteps.dropStep(slot, current));
			steps.add(SlotSteps.createStep(spec, nudge(primary, target)));
			return steps;
		}, (connection) -> require(connection, target, slot));
		if (recreated.plan() != null) {
			return new Changed<>(null, recreated.plan());
		}
		SlotView newSlot = recreated.result();
		recreationCounter(target, old[0]).increment();
		ConnectorOutcome connector = target.slotPolicy(slot)
			.map(SlotPolicyProperties::connector)
			.filter(Objects::nonNull)
			.map(this.connectors::restart)
			.orElse(null);
		return new Changed<>(new RecreateResult(old[0], newSlot, skipped(old[0], newSlot), connector), null);
	}

	// On a standby, a logical slot is created only once the primary logs a running-transactions record: asking the
	// primary for one (PostgreSQL 16+, superuser or GRANT) spares waiting up to 15 s for the background writer's.
	private Runnable nudge(TargetProperties primary, TargetProperties node) {
		if (primary == node) {
			return null;
		}
		return () -> {
			try (Connection connection = this.dataSources.connection(primary)) {
				SlotRepository.logStandbySnapshot(connection);
			}
			catch (SQLException ex) {
				// Not allowed or not available: the standby then waits for the primary's own snapshot.
			}
		};
	}

	ConnectorOutcome restartConnector(String targetName, String slot) {
		TargetProperties target = this.targets.get(targetName);
		return this.connectors.restart(connectorOf(target, slot).connector());
	}

	static SlotPolicyProperties connectorOf(TargetProperties target, String slot) {
		return target.slotPolicy(slot)
			.filter((policy) -> policy.connector() != null)
			.orElseThrow(() -> SlotProblem.noConnector(target.name(), slot));
	}

	private static RecreateResult.SkippedRange skipped(SlotView old, SlotView created) {
		String from = old.logical() ? old.confirmedFlushLsn() : old.restartLsn();
		String to = created.logical() ? created.confirmedFlushLsn() : created.restartLsn();
		return new RecreateResult.SkippedRange(from, to, Lsn.distance(from, to));
	}

	private Counter recreationCounter(TargetProperties target, SlotView slot) {
		return Counter.builder("slotkeeper.slot.recreations")
			.description("Slots dropped and created again by slot-keeper")
			.tags(SlotMetrics.tags(target.name(), slot))
			.register(this.registry);
	}

	static SlotView require(Connection connection, TargetProperties target, String slot) throws SQLException {
		return SlotRepository.find(connection, slot).orElseThrow(() -> SlotProblem.notFound(target.name(), slot));
	}

	private <T> Changed<T> change(TargetProperties target, String action, String slot, boolean dryRun, Planner planner,
			TargetDataSources.SqlWork<T> after) {
		return this.dataSources.withConnection(target, (connection) -> {
			// Plan and run under one lock per target, so that two instances never both act on what they read.
			AdvisoryLocks.lock(connection, AdvisoryLocks.changeKey(target.name()));
			try {
				return planAndRun(connection, target, action, slot, dryRun, planner, after);
			}
			finally {
				AdvisoryLocks.unlock(connection, AdvisoryLocks.changeKey(target.name()));
			}
		});
	}

	private <T> Changed<T> planAndRun(Connection connection, TargetProperties target, String action, String slot,
			boolean dryRun, Planner planner, TargetDataSources.SqlWork<T> after) throws SQLException {
		List<SlotSteps.Step> steps;
		try {
			steps = planner.plan(connection);
		}
		catch (ApiException refusal) {
			if (dryRun) {
				return new Changed<T>(null, SlotPlan.refused(action, target.name(), slot, refusal));
			}
			throw refusal;
		}
		if (dryRun) {
			return new Changed<T>(null,
					SlotPlan.of(action, target.name(), slot, steps.stream().map(SlotSteps.Step::description).toList()));
		}
		for (SlotSteps.Step step : steps) {
			step.action().run(connection);
		}
		return new Changed<>(after.apply(connection), null);
	}

	/**
	 * A change's result, or its plan when it was a dry run.
	 * @param <T> the result's type
	 * @param result what the change made, {@code null} for a dry run
	 * @param plan the plan, {@code null} when the change ran
	 */
	record Changed<T>(T result, SlotPlan plan) {
	}

	@FunctionalInterface
	interface Planner {

		List<SlotSteps.Step> plan(Connection connection) throws SQLException;

	}

}
