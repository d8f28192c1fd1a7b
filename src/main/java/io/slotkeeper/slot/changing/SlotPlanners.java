package io.slotkeeper.slot.changing;

import java.util.ArrayList;
import java.util.List;
import java.util.OptionalInt;

import io.slotkeeper.fleet.Target;
import io.slotkeeper.handover.Handover;
import io.slotkeeper.replication.ReplicationSlot;
import io.slotkeeper.replication.SlotProblems;
import io.slotkeeper.replication.SlotRepository;
import io.slotkeeper.sessions.Node;
import io.slotkeeper.slot.changing.Step;

/**
 * How each change is planned from what the node shows: the rules it must pass, then its
 * steps.
 */
final class SlotPlanners {

	private SlotPlanners() {
	}

	static ChangeRunner.Planner creating(Target target, Node node, SlotSpec spec, Handover handover) {
		return (connection) -> {
			SlotRules.requireManagedHere(target, node, spec.name());
			SlotRules.requirePrivilege(node, SlotStatements.mayUseSlots(connection));
			SlotRules.requireAbsent(node, spec.name(), SlotRepository.find(connection, spec.name()));
			SlotRules.requireSupported(node, spec, SlotRepository.major(connection),
					SlotRepository.inRecovery(connection));
			List<Step> steps = new ArrayList<>(SlotSteps.connectorBefore(handover));
			steps.add(SlotSteps.create(spec, SlotSteps.nudge(target, node)));
			steps.addAll(SlotSteps.connectorAfter(handover));
			return new ChangeRunner.Plan(steps, null);
		};
	}

	static ChangeRunner.Planner dropping(Target target, Node node, String slot, boolean force, String ifMatch) {
		return (connection) -> {
			SlotRules.requireManagedHere(target, node, slot);
			SlotRules.requirePrivilege(node, SlotStatements.mayUseSlots(connection));
			ReplicationSlot current = SlotRepository.require(connection, node, slot);
			SlotRules.requireMatch(node, current, ifMatch);
			return new ChangeRunner.Plan(release(node, current, force), current);
		};
	}

	static ChangeRunner.Planner recreating(Target target, Node node, String slot, boolean force, String ifMatch,
			Handover handover) {
		return recreating(target, node, slot, force, ifMatch, handover, new Replacement());
	}

	static ChangeRunner.Planner recreating(Target target, Node node, String slot, boolean force, String ifMatch,
			Handover handover, Replacement replacement) {
		return (connection) -> {
			SlotRules.requireManagedHere(target, node, slot);
			SlotRules.requirePrivilege(node, SlotStatements.mayUseSlots(connection));
			ReplicationSlot current = SlotRepository.require(connection, node, slot);
			SlotRules.requireMatch(node, current, ifMatch);
			SlotRules.requireRecreatable(node, current, SlotRepository.currentDatabase(connection), force);
			SlotSpec spec = SlotSpec.of(current);
			SlotRules.requireSupported(node, spec, SlotRepository.major(connection),
					SlotRepository.inRecovery(connection));
			List<Step> steps = new ArrayList<>(SlotSteps.connectorBefore(handover));
			// Only a lost slot is healed by others too; a healthy one is recreated on an
			// operator's word alone.
			if ("lost".equals(current.walStatus())) {
				steps.add(SlotSteps.dropLost(slot, replacement));
			}
			else {
				steps.addAll(release(node, current, force));
			}
			steps.add(SlotSteps.create(spec, SlotSteps.nudge(target, node), replacement));
			steps.addAll(SlotSteps.connectorAfter(handover));
			return new ChangeRunner.Plan(steps, current);
		};
	}

	// The server waits for an active slot to be released before it alters it: its
	// consumer must end first.
	// A slot its manager made anew is kept as it is: only its connector is stopped, to be
	// handed over to it.
	static ChangeRunner.Planner adopting(Node node, String slot, Handover handover, String manager) {
		return (connection) -> {
			ReplicationSlot current = SlotRepository.require(connection, node, slot);
			if (current.invalidated()) {
				throw SlotProblems.lostAgain(node, slot, manager);
			}
			List<Step> steps = new ArrayList<>(SlotSteps.connectorBefore(handover));
			steps.add(SlotSteps
				.nothing("keep slot " + slot + " as " + manager + " made it anew: neither dropped nor" + " created"));
			steps.addAll(SlotSteps.connectorAfter(handover));
			return new ChangeRunner.Plan(steps, current);
		};
	}

	static ChangeRunner.Planner alteringFailover(Node node, String slot, boolean failover, boolean force,
			String ifMatch) {
		return (connection) -> {
			SlotRules.requirePrivilege(node, SlotStatements.mayUseSlots(connection));
			ReplicationSlot current = SlotRepository.require(connection, node, slot);
			SlotRules.requireMatch(node, current, ifMatch);
			SlotRules.requireFailoverAlterable(node, current, SlotRepository.major(connection),
					SlotRepository.inRecovery(connection));
			if (Boolean.valueOf(failover).equals(current.failover())) {
				return new ChangeRunner.Plan(
						List.of(SlotSteps
							.nothing("slot " + slot + " already has failover " + failover + ": nothing to do")),
						current);
			}
			List<Step> steps = new ArrayList<>();
			SlotRules.holderToEnd(node, current, force).ifPresent((pid) -> steps.add(SlotSteps.terminate(pid, slot)));
			steps.add(SlotSteps.alterFailover(node, slot, failover));
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

}
