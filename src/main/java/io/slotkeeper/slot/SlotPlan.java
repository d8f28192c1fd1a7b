package io.slotkeeper.slot;

import java.util.List;

import io.slotkeeper.api.ProblemTypes;
import io.slotkeeper.slot.changing.ChangePlan;

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

	static SlotPlan of(ChangePlan plan) {
		if (!plan.refused()) {
			return new SlotPlan(true, plan.action(), plan.target(), plan.slot(), List.copyOf(plan.steps()), false,
					null);
		}
		ProblemTypes.ProblemType type = ProblemTypes.of(plan.refusal().kind());
		return new SlotPlan(true, plan.action(), plan.target(), plan.slot(), List.of(), true,
				new Refusal(type.status().value(), type.type().toString(), plan.refusal().getMessage()));
	}

	/**
	 * Why a change would be refused: the problem the real call would answer.
	 *
	 * @param status its HTTP status
	 * @param type its problem type
	 * @param detail its detail
	 */
	public record Refusal(int status, String type, String detail) {
	}

}
