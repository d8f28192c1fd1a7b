package io.slotkeeper.slot;

import org.springframework.http.HttpStatus;

import io.slotkeeper.api.ApiException;

/**
 * A slot change refused by slot-keeper's own safety rules, before anything runs on the server.
 */
public class SlotProblem extends ApiException {

	private SlotProblem(HttpStatus status, String slug, String title, String detail, String target, String slot) {
		super(status, slug, title, detail);
		with("target", target);
		with("slot", slot);
	}

	static SlotProblem notFound(String target, String slot) {
		return new SlotProblem(HttpStatus.NOT_FOUND, "slot-not-found", "Unknown slot",
				"Target '" + target + "' has no replication slot '" + slot + "'.", target, slot);
	}

	static SlotProblem exists(String target, String slot) {
		return new SlotProblem(HttpStatus.CONFLICT, "slot-exists", "Slot exists",
				"Target '" + target + "' already has a replication slot '" + slot + "'.", target, slot);
	}

	static SlotProblem active(String target, SlotView slot) {
		SlotProblem problem = new SlotProblem(HttpStatus.CONFLICT, "slot-active", "Slot in use",
				"Slot '" + slot.slotName() + "' is in use by backend " + slot.activePid()
						+ "; stop its consumer first, or pass force=true to end that backend's session.",
				target, slot.slotName());
		problem.with("activePid", slot.activePid());
		return problem;
	}

	static SlotProblem healthy(String target, SlotView slot) {
		return new SlotProblem(HttpStatus.CONFLICT, "slot-not-invalidated", "Slot is not invalidated",
				"Slot '" + slot.slotName() + "' is " + slot.walStatus() + ", not lost: recreating it would make its"
						+ " consumer skip changes. Pass force=true to recreate it anyway.",
				target, slot.slotName());
	}

	static SlotProblem unsupported(String target, String slot, String detail) {
		return new SlotProblem(HttpStatus.UNPROCESSABLE_CONTENT, "not-supported", "Not supported by this server",
				detail, target, slot);
	}

	static SlotProblem badRequest(String target, String slot, String detail) {
		return new SlotProblem(HttpStatus.BAD_REQUEST, "invalid-request", "Invalid request", detail, target, slot);
	}

	static SlotProblem noNode(String target, String node) {
		return new SlotProblem(HttpStatus.NOT_FOUND, "node-not-found", "Unknown node",
				"Target '" + target + "' has no replica '" + node + "' (nodes: primary and slotkeeper.targets[].replicas).",
				target, null);
	}

	static SlotProblem noConnector(String target, String slot) {
		return new SlotProblem(HttpStatus.NOT_FOUND, "connector-not-configured", "No connector configured",
				"Slot '" + slot + "' of target '" + target + "' has no connector in slotkeeper.targets[].slots.",
				target, slot);
	}

}
