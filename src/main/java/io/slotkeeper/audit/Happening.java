package io.slotkeeper.audit;

/**
 * Something slot-keeper did or found that the people running a connector want told where
 * they already look (Kubernetes Events, {@code oc describe kafkaconnector}): what, in
 * UpperCamelCase, and one sentence. The audit journal keeps the whole record; this is the
 * headline.
 *
 * @param target the target it concerns
 * @param slot the slot it concerns, {@code null} for the target as a whole
 * @param warning whether someone may have to act
 * @param reason what happened ({@code SlotRecreated})
 * @param action what slot-keeper did or was doing ({@code Heal})
 * @param note one sentence
 */
public record Happening(String target, String slot, boolean warning, String reason, String action, String note) {

	/**
	 * Something done or found that needs no one.
	 * @param target the target
	 * @param slot the slot, or {@code null}
	 * @param reason what happened
	 * @param action what slot-keeper did
	 * @param note one sentence
	 * @return the happening
	 */
	public static Happening normal(String target, String slot, String reason, String action, String note) {
		return new Happening(target, slot, false, reason, action, note);
	}

	/**
	 * Something someone may have to act on.
	 * @param target the target
	 * @param slot the slot, or {@code null}
	 * @param reason what happened
	 * @param action what slot-keeper did or could not do
	 * @param note one sentence
	 * @return the happening
	 */
	public static Happening warning(String target, String slot, String reason, String action, String note) {
		return new Happening(target, slot, true, reason, action, note);
	}

}
