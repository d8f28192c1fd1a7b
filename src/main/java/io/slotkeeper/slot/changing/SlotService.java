package io.slotkeeper.slot.changing;

import java.util.ArrayList;
import java.util.List;
import java.util.OptionalInt;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;

import io.slotkeeper.connect.ConnectorClient;
import io.slotkeeper.connect.ConnectorOutcome;
import io.slotkeeper.fleet.Node;
import io.slotkeeper.fleet.Target;
import io.slotkeeper.problem.ProblemException;
import io.slotkeeper.problem.ProblemKind;
import io.slotkeeper.slot.reading.ReplicationSlot;
import io.slotkeeper.slot.reading.SlotRepository;
import io.slotkeeper.slot.reading.SlotTags;
import io.slotkeeper.slot.reading.SlotView;
import io.slotkeeper.slot.changing.SlotSteps.Step;

/**
 * The replication-slot runbook. Every change is first planned from what the node shows now, by the
 * {@link SlotRules}, then either answered as a {@link ChangePlan} (a dry run) or run step by step; both under one
 * advisory lock per target, so that two instances never both act on what they read.
 */
public class SlotService {

	private final ConnectorClient connectors;

	private final MeterRegistry registry;

	/**
	 * Creates the service.
	 * @param connectors the Kafka Connect client
	 * @param registry where recreations are counted
	 */
	public SlotService(ConnectorClient connectors, MeterRegistry registry) {
		this.connectors = connectors;
		this.registry = registry;
	}

	/**
	 * What creating a slot would do.
	 * @param target the target
	 * @param node the node's name, {@code null} for the primary
	 * @param spec the slot to create
	 * @return the plan
	 */
	public ChangePlan planCreate(Target target, String node, SlotSpec spec) {
		return ChangeRunner.dryRun(target.node(node), "slot.create", spec.name(), creating(target, target.node(node), spec));
	}

	/**
	 * Creates a slot.
	 * @param target the target
	 * @param node the node's name, {@code null} for the primary
	 * @param spec the slot to create
	 * @return the slot as created
	 */
	public SlotView create(Target target, String node, SlotSpec spec) {
		Node where = target.node(node);
		return ChangeRunner.apply(where, creating(target, where, spec),
				(connection, before) -> SlotView.of(where.name(), SlotRepository.require(connection, where, spec.name())));
	}

	/**
	 * What dropping a slot would do.
	 * @param target the target
	 * @param node the node's name, {@code null} for the primary
	 * @param slot the slot's name
	 * @param force end the session holding an active slot
	 * @param ifMatch the entity tags the caller saw the slot with, {@code null} for any
	 * @return the plan
	 */
	public ChangePlan planDrop(Target target, String node, String slot, boolean force, String ifMatch) {
		return ChangeRunner.dryRun(target.node(node), "slot.drop", slot,
				dropping(target.node(node), slot, force, ifMatch));
	}

	/**
	 * Drops a slot.
	 * @param target the target
	 * @param node the node's name, {@code null} for the primary
	 * @param slot the slot's name
	 * @param force end the session holding an active slot
	 * @param ifMatch the entity tags the caller saw the slot with, {@code null} for any
	 */
	public void drop(Target target, String node, String slot, boolean force, String ifMatch) {
		Node where = target.node(node);
		ChangeRunner.apply(where, dropping(where, slot, force, ifMatch), (connection, before) -> before);
	}

	/**
	 * What recreating a slot would do.
	 * @param target the target
	 * @param node the node's name, {@code null} for the primary
	 * @param slot the slot's name
	 * @param force recreate a slot that is not invalidated; end the session holding it
	 * @param ifMatch the entity tags the caller saw the slot with, {@code null} for any
	 * @return the plan
	 */
	public ChangePlan planRecreate(Target target, String node, String slot, boolean force, String ifMatch) {
		return ChangeRunner.dryRun(target.node(node), "slot.recreate", slot,
				recreating(target, target.node(node), slot, force, ifMatch));
	}

	/**
	 * Drops a slot and creates it again with the same options, then restarts its connector if one is configured.
	 * @param target the target
	 * @param node the node's name, {@code null} for the primary
	 * @param slot the slot's name
	 * @param force recreate a slot that is not invalidated; end the session holding it
	 * @param ifMatch the entity tags the caller saw the slot with, {@code null} for any
	 * @return the old and new slot, the skipped range and the connector's outcome
	 */
	public RecreateResult recreate(Target target, String node, String slot, boolean force, String ifMatch) {
		Node where = target.node(node);
		RecreateResult recreated = ChangeRunner.apply(where, recreating(target, where, slot, force, ifMatch),
				(connection, before) -> RecreateResult
			.of(where.name(), before, SlotRepository.require(connection, where, slot)));
		recreationCounter(where, recreated.oldSlot().slot()).increment();
		return target.connectorOf(slot)
			.map((connector) -> recreated.withConnector(this.connectors.restart(connector)))
			.orElse(recreated);
	}

	/**
	 * Restarts a slot's connector and its failed tasks.
	 * @param target the target
	 * @param slot the slot's name
	 * @return what the restart came to
	 * @throws ProblemException ({@link ProblemKind#CONNECTOR_RESTART_FAILED}) when Kafka Connect did not accept it
	 */
	public ConnectorOutcome restartConnector(Target target, String slot) {
		ConnectorOutcome outcome = this.connectors.restart(target.connector(slot));
		if (!outcome.restarted()) {
			throw new ProblemException(ProblemKind.CONNECTOR_RESTART_FAILED,
					"Restart of connector '" + outcome.connector() + "' failed: " + outcome.detail())
				.with("target", target.name())
				.with("slot", slot)
				.with("connector", outcome.connector())
				.with("connectStatus", outcome.status())
				.with("attempts", outcome.attempts());
		}
		return outcome;
	}

	private ChangeRunner.Planner creating(Target target, Node node, SlotSpec spec) {
		return (connection) -> {
			SlotRules.requirePrivilege(node, SlotStatements.mayUseSlots(connection));
			SlotRules.requireAbsent(node, spec.name(), SlotRepository.find(connection, spec.name()));
			SlotRules.requireSupported(node, spec, SlotRepository.major(connection), SlotRepository.inRecovery(connection));
			return new ChangeRunner.Plan(List.of(SlotSteps.create(spec, SlotSteps.nudge(target, node))), null);
		};
	}

	private static ChangeRunner.Planner dropping(Node node, String slot, boolean force, String ifMatch) {
		return (connection) -> {
			SlotRules.requirePrivilege(node, SlotStatements.mayUseSlots(connection));
			ReplicationSlot current = SlotRepository.require(connection, node, slot);
			SlotRules.requireMatch(node, current, ifMatch);
			return new ChangeRunner.Plan(release(node, current, force), current);
		};
	}

	private ChangeRunner.Planner recreating(Target target, Node node, String slot, boolean force, String ifMatch) {
		return (connection) -> {
			SlotRules.requirePrivilege(node, SlotStatements.mayUseSlots(connection));
			ReplicationSlot current = SlotRepository.require(connection, node, slot);
			SlotRules.requireMatch(node, current, ifMatch);
			SlotRules.requireRecreatable(node, current, SlotRepository.currentDatabase(connection), force);
			SlotSpec spec = SlotSpec.of(current);
			SlotRules.requireSupported(node, spec, SlotRepository.major(connection), SlotRepository.inRecovery(connection));
			List<Step> steps = release(node, current, force);
			steps.add(SlotSteps.create(spec, SlotSteps.nudge(target, node)));
			return new ChangeRunner.Plan(steps, current);
		};
	}

	private static List<Step> release(Node node, ReplicationSlot current, boolean force) {
		OptionalInt holder = SlotRules.holderToEnd(node, current, force);
		List<Step> steps = new ArrayList<>();
		holder.ifPresent((pid) -> steps.add(SlotSteps.terminate(pid, current.slotName())));
		steps.add(SlotSteps.drop(current.slotName(), holder));
		return steps;
	}

	private Counter recreationCounter(Node node, ReplicationSlot slot) {
		return Counter.builder("slotkeeper.slot.recreations")
			.description("Slots dropped and created again by slot-keeper")
			.tags(SlotTags.of(node.target(), node.name(), slot))
			.register(this.registry);
	}

}
