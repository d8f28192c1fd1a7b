package io.slotkeeper.slot.changing;

import java.util.List;

import io.slotkeeper.problem.ProblemException;

/**
 * What a change would do, answered for a dry run: nothing ran.
 *
 * @param action the change, for example {@code slot.drop}
 * @param target the target's name
 * @param slot the slot's name
 * @param steps what would run, in order; empty when refused
 * @param refusal the problem the real call would answer, {@code null} when it would run
 */
public record ChangePlan(String action, String target, String slot, List<String> steps, ProblemException refusal) {

	/**
	 * Whether the change would be refused.
	 * @return whether a refusal is planned
	 */
	public boolean refused() {
		return this.refusal != null;
	}

	/**
	 * The plan in one line, for the audit.
	 * @return the steps, or why the change would be refused
	 */
	public String summary() {
		return refused() ? "would be refused: " + this.refusal.getMessage() : String.join("; ", this.steps);
	}

}
