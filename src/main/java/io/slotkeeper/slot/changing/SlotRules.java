package io.slotkeeper.slot.changing;

import java.util.Objects;
import java.util.Optional;
import java.util.OptionalInt;

import io.slotkeeper.fleet.Target;
import io.slotkeeper.problem.ProblemException;
import io.slotkeeper.replication.ReplicationSlot;
import io.slotkeeper.replication.SlotProblems;
import io.slotkeeper.sessions.Node;
import io.slotkeeper.sessions.TargetProblems;

/**
 * The safety rules of slot changes, on what the server showed: each either passes or
 * throws the refusal the operator sees. No rule touches the server.
 */
final class SlotRules {

	private SlotRules() {
	}

	static void requirePrivilege(Node node, boolean mayUseSlots) {
		if (!mayUseSlots) {
			throw TargetProblems
				.insufficientPrivilege(node,
						"permission denied to use replication slots: role lacks the REPLICATION attribute")
				.with("sqlState", "42501");
		}
	}

	// Two healers of one slot undo each other's work: a drop while Patroni recreates, a
	// create it then fails on.
	static void requireManagedHere(Target target, Node node, String slot) {
		target.slots().policy(slot).filter((policy) -> !policy.managedBySlotKeeper()).ifPresent((policy) -> {
			throw SlotProblems.managedElsewhere(node, slot, policy.managedBy().configName());
		});
	}

	static void requireAbsent(Node node, String name, Optional<ReplicationSlot> existing) {
		if (existing.isPresent()) {
			throw SlotProblems.exists(node, name);
		}
	}

	/**
	 * Whose session must end before the slot can be dropped.
	 * @return the consumer's backend when the slot is active and the change forced, empty
	 * when it is not active
	 * @throws ProblemException when the slot is active and the change not forced
	 */
	static OptionalInt holderToEnd(Node node, ReplicationSlot slot, boolean force) {
		if (!slot.streaming()) {
			return OptionalInt.empty();
		}
		if (!force) {
			throw SlotProblems.active(node, slot);
		}
		return OptionalInt.of(slot.activePid());
	}

	// A recreate makes the consumer skip what the slot still held: only a lost slot, or
	// one the operator insists on.
	static void requireRecreatable(Node node, ReplicationSlot current, String sessionDatabase, boolean force) {
		String slot = current.slotName();
		if (!current.invalidated() && !force) {
			throw SlotProblems.healthy(node, current);
		}
		if (Boolean.TRUE.equals(current.temporary())) {
			throw SlotProblems.unsupported(node, slot,
					"Slot '" + slot + "' is temporary: it belongs to its session and cannot be recreated by another.");
		}
		if (current.logical() && !Objects.equals(current.database(), sessionDatabase)) {
			throw SlotProblems.unsupported(node, slot,
					"Slot '" + slot + "' belongs to database '" + current.database() + "' but " + node.describe()
							+ " connects to '" + sessionDatabase + "'; a logical slot is created"
							+ " in the database of its session: configure a target for '" + current.database() + "'.");
		}
	}

	/**
	 * Passes when the caller sent no {@code If-Match}, {@code *}, or the slot's current
	 * tag among those it sent.
	 * @throws ProblemException when the slot is no longer the one the caller saw
	 */
	static void requireMatch(Node node, ReplicationSlot current, String ifMatch) {
		if (ifMatch == null) {
			return;
		}
		String etag = current.etag();
		for (String tag : ifMatch.split(",")) {
			if (tag.strip().equals("*") || tag.strip().equals(etag)) {
				return;
			}
		}
		throw SlotProblems.changed(node, current, ifMatch);
	}

	static void requireFailoverAlterable(Node node, ReplicationSlot current, int major, boolean inRecovery) {
		String slot = current.slotName();
		if (major < 17) {
			throw SlotProblems.unsupported(node, slot,
					"failover needs PostgreSQL 17 or later; this server is " + major + ".");
		}
		if (!current.logical()) {
			throw SlotProblems.unsupported(node, slot,
					"Slot '" + slot + "' is physical: only logical slots fail over.");
		}
		if (Boolean.TRUE.equals(current.temporary())) {
			throw SlotProblems.unsupported(node, slot, "Slot '" + slot + "' is temporary: it cannot fail over.");
		}
		if (inRecovery) {
			throw SlotProblems.unsupported(node, slot, node.subject() + " is a standby: set failover on the primary's"
					+ " slot; standbys that synchronize slots copy it from there.");
		}
	}

	static void requireSupported(Node node, SlotSpec spec, int major, boolean inRecovery) {
		if (spec.logical() && major < 16 && inRecovery) {
			throw SlotProblems.unsupported(node, spec.name(), "Logical slots on a standby need PostgreSQL 16"
					+ " or later; this standby is " + major + ". Create the slot on the primary, or upgrade.");
		}
		if (spec.twoPhase() && major < 14) {
			throw SlotProblems.unsupported(node, spec.name(),
					"twoPhase needs PostgreSQL 14 or later; this server is " + major + ".");
		}
		if (spec.failover() && major < 17) {
			throw SlotProblems.unsupported(node, spec.name(),
					"failover needs PostgreSQL 17 or later; this server is " + major + ".");
		}
	}

}
