package io.slotkeeper.slot;

import java.util.List;

import io.slotkeeper.api.ApiException;

/**
 * What a change would do, answered for {@code dryRun=true}: nothing ran.
 *
 * @param dryRun always {@code true}
 * @param action the change, for example {@code slot.drop}
 * @param target the target
 * @param slot the slot
 * @param steps what would run, in order
 * @param wouldBeRefused whether the change would be refused
 * @param refusal why, when it would be
 */
public record SlotPlan(boolean dryRun, String action, String target, String slot, List<String> steps,
		boolean wouldBeRefused, Refusal refusal) {

	static SlotPlan of(String action, String target, String slot, List<String> steps) {
		return new SlotPlan(true, action, target, slot, List.copyOf(steps), false, null);
	}

	static SlotPlan refused(String action, String target, String slot, ApiException refusal) {
		return new SlotPlan(true, action, target, slot, List.of(), true,
				new Refusal(refusal.status().value(), refusal.type().toString(), refusal.getMessage()));
	}

	/**
	 * Why a change would be refused: the problem the real call would answer.
	 * @param status its HTTP status
	 * @param type its problem type
	 * @param detail its detail
	 */
	public record Refusal(int status, String type, String detail) {
	}

}
