package io.slotkeeper.replication;

import io.slotkeeper.problem.ProblemException;
import io.slotkeeper.problem.ProblemKind;
import io.slotkeeper.sessions.Node;

/**
 * Slot changes and reads refused by slot-keeper's own rules, before anything runs on the
 * server; each names the target, the node (for a replica) and the slot.
 */
public final class SlotProblems {

	private SlotProblems() {
	}

	/**
	 * The node has no such slot.
	 * @param node the node
	 * @param slot the slot's name
	 * @return the problem
	 */
	public static ProblemException notFound(Node node, String slot) {
		return at(node, slot, ProblemKind.SLOT_NOT_FOUND, node.subject() + " has no replication slot '" + slot + "'.");
	}

	/**
	 * The node has a slot of that name already.
	 * @param node the node
	 * @param slot the slot's name
	 * @return the problem
	 */
	public static ProblemException exists(Node node, String slot) {
		return at(node, slot, ProblemKind.SLOT_EXISTS,
				node.subject() + " already has a replication slot '" + slot + "'.");
	}

	/**
	 * A consumer holds the slot and the change was not forced.
	 * @param node the node
	 * @param slot the slot
	 * @return the problem, with {@code activePid}
	 */
	public static ProblemException active(Node node, ReplicationSlot slot) {
		return at(node, slot.slotName(), ProblemKind.SLOT_ACTIVE,
				"Slot '" + slot.slotName() + "' is in use by backend " + slot.activePid()
						+ "; stop its consumer first, or pass force=true to end that backend's session.")
			.with("activePid", slot.activePid());
	}

	/**
	 * A recreate of a slot that is not invalidated, not forced.
	 * @param node the node
	 * @param slot the slot
	 * @return the problem
	 */
	public static ProblemException healthy(Node node, ReplicationSlot slot) {
		return at(node, slot.slotName(), ProblemKind.SLOT_NOT_INVALIDATED,
				"Slot '" + slot.slotName() + "' is " + slot.walStatus()
						+ ", not lost: recreating it would make its consumer skip changes. Pass force=true"
						+ " to recreate it anyway.");
	}

	/**
	 * The slot is no longer the one the caller saw: dropped and created again, or moved.
	 * @param node the node
	 * @param slot the slot as it is now
	 * @param ifMatch the tags the caller sent
	 * @return the problem, with the slot's current {@code etag}
	 */
	public static ProblemException changed(Node node, ReplicationSlot slot, String ifMatch) {
		return at(node, slot.slotName(), ProblemKind.SLOT_CHANGED,
				"Slot '" + slot.slotName() + "' is no longer the" + " one you saw (If-Match " + ifMatch + ", now "
						+ slot.etag() + "): read it again and decide on what it" + " is now.")
			.with("etag", slot.etag());
	}

	/**
	 * The slot's policy says another drops and creates it.
	 * @param node the node
	 * @param slot the slot's name
	 * @param manager who manages it, as configured
	 * @return the problem, with {@code managedBy}
	 */
	public static ProblemException managedElsewhere(Node node, String slot, String manager) {
		return at(node, slot, ProblemKind.SLOT_MANAGED_ELSEWHERE, "Slot '" + slot + "' is managed by " + manager
				+ " (its policy's managed-by): slot-keeper never drops or creates it, so that the two never undo each"
				+ " other's work. Change it through " + manager + ", and slot-keeper hands the connector over to the"
				+ " slot it makes.")
			.with("managedBy", manager);
	}

	/**
	 * A slot another manages was lost again before its connector could be handed over to
	 * the slot made anew.
	 * @param node the node
	 * @param slot the slot's name
	 * @param manager who manages it, as configured
	 * @return the problem
	 */
	public static ProblemException lostAgain(Node node, String slot, String manager) {
		return at(node, slot, ProblemKind.SLOT_MANAGED_ELSEWHERE,
				"Slot '" + slot + "' was lost again before its" + " connector was handed over to the slot " + manager
						+ " made anew: the handover waits for the next" + " slot " + manager + " makes.")
			.with("managedBy", manager);
	}

	/**
	 * The server (its version, its role, the slot's kind) cannot do this.
	 * @param node the node
	 * @param slot the slot's name
	 * @param detail why
	 * @return the problem
	 */
	public static ProblemException unsupported(Node node, String slot, String detail) {
		return at(node, slot, ProblemKind.NOT_SUPPORTED, detail);
	}

	/**
	 * The request contradicts itself.
	 * @param target the target's name
	 * @param slot the slot's name
	 * @param detail why
	 * @return the problem
	 */
	public static ProblemException badRequest(String target, String slot, String detail) {
		return new ProblemException(ProblemKind.INVALID_REQUEST, detail).with("target", target).with("slot", slot);
	}

	private static ProblemException at(Node node, String slot, ProblemKind kind, String detail) {
		return new ProblemException(kind, detail).with("target", node.target())
			.with("node", node.primary() ? null : node.name())
			.with("slot", slot);
	}

}
