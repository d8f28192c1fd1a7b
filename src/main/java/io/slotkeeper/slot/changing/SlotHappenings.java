package io.slotkeeper.slot.changing;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import io.slotkeeper.audit.Happening;
import io.slotkeeper.handover.CompletedHandover;
import io.slotkeeper.handover.ConnectorHandover;
import io.slotkeeper.resnapshot.GapDelivery;
import io.slotkeeper.resnapshot.Resnapshot;

/**
 * What a heal tells where users look ({@link Happening}s, Kubernetes Events): the loss,
 * the recreate, and the handover's start, end, or the user's choice it kept — each a
 * reason and one sentence; the audit journal ({@link SlotAudit}) keeps the whole record.
 */
public final class SlotHappenings {

	private static final String HEAL = "Heal";

	private static final String HAND_OVER = "HandOver";

	private SlotHappenings() {
	}

	/**
	 * A lost or missing slot recreated by slot-keeper, and its connector's handover.
	 * @param target the target
	 * @param slot the slot
	 * @param lost whether it was lost ({@code false}: missing on the primary)
	 * @param result the recreate
	 * @return what to tell, in order
	 */
	public static List<Happening> recreated(String target, String slot, boolean lost, RecreateResult result) {
		List<Happening> told = new ArrayList<>();
		String why = (result.oldSlot() != null && result.oldSlot().slot() != null
				&& result.oldSlot().slot().invalidation() != null) ? " (" + result.oldSlot().slot().invalidation() + ")"
						: "";
		told.add(lost
				? Happening.warning(target, slot, "SlotLost", HEAL,
						"Slot " + slot + " of target " + target + " was lost" + why + ": slot-keeper recreates it.")
				: Happening.warning(target, slot, "SlotMissing", HEAL, "Slot " + slot + " of target " + target
						+ " was missing on the primary: slot-keeper creates it again."));
		told.add(Happening.normal(target, slot, "SlotRecreated", HEAL,
				"Slot " + slot + " of target " + target + " was recreated; its consumer skips "
						+ result.skipped().fromLsn() + " to " + result.skipped().toLsn()
						+ ((result.gap() != null) ? "; gap: " + result.gap().describe() : "") + "."));
		if (result.connector() != null) {
			told.add(handover(target, slot, result.connector(), result.resnapshot()));
		}
		return told;
	}

	/**
	 * A handover that waited for Kafka Connect, now ended.
	 * @param target the target
	 * @param completed the handover
	 * @return what to tell
	 */
	public static Happening handedOver(String target, CompletedHandover completed) {
		return handover(target, completed.slot(), completed.connector(), completed.resnapshot());
	}

	/**
	 * A handover that failed after its slot was recreated.
	 * @param target the target
	 * @param slot the slot
	 * @param why why, in words
	 * @return what to tell
	 */
	public static Happening handoverFailed(String target, String slot, String why) {
		return Happening.warning(target, slot, "HandoverFailed", HAND_OVER, "The connector of slot " + slot
				+ " of target " + target + " was not handed over to the new slot: " + why);
	}

	/**
	 * A recreate slot-keeper would have made and did not.
	 * @param target the target
	 * @param slot the slot
	 * @param refused whether its heal budget refused it ({@code false}: it failed)
	 * @param why why, in words
	 * @return what to tell
	 */
	public static Happening notRecreated(String target, String slot, boolean refused, String why) {
		return Happening.warning(target, slot, refused ? "SlotRecreateRefused" : "SlotRecreateFailed", HEAL,
				"Slot " + slot + " of target " + target + " was not recreated: " + why);
	}

	/**
	 * What became of a gap's signals to the Debezium extension.
	 * @param target the target
	 * @param slot the slot
	 * @param delivery the delivery, finished
	 * @return what to tell
	 */
	public static Happening gapDelivered(String target, String slot, GapDelivery delivery) {
		return delivery.delivered()
				? Happening.normal(target, slot, "GapDelivered", HAND_OVER,
						"The gap's changes of slot " + slot + " reached the connector: " + delivery.summary() + ".")
				: Happening.warning(target, slot, "GapNotDelivered", HAND_OVER, "The gap's changes of slot " + slot
						+ " did not all reach the connector (listed at …/gap): " + delivery.summary() + ".");
	}

	private static Happening handover(String target, String slot, ConnectorHandover handover, Resnapshot resnapshot) {
		String connector = "Connector " + handover.connector();
		if (handover.pending()) {
			return Happening.normal(target, slot, "HandoverStarted", HAND_OVER, connector
					+ " is handed over to the new slot once Kafka Connect answers: " + handover.describe() + ".");
		}
		if (handover.leftAs() != null) {
			return Happening.normal(target, slot, "HandoverLeftAsChosen", HAND_OVER,
					connector + " was handed over (" + handover.method() + ") and left " + handover.leftAs()
							+ " as its user had it" + reread(resnapshot) + ".");
		}
		if (handover.running()) {
			String note = connector + " was handed over (" + handover.method() + ") and runs" + reread(resnapshot)
					+ ((handover.warning() != null) ? "; " + handover.warning() : "") + ".";
			return (handover.warning() != null) ? Happening.warning(target, slot, "HandoverCompleted", HAND_OVER, note)
					: Happening.normal(target, slot, "HandoverCompleted", HAND_OVER, note);
		}
		return Happening.warning(target, slot, "HandoverFailed", HAND_OVER,
				connector + " does not run after the handover: " + handover.describe() + ".");
	}

	// What the re-snapshot reads again and the gap's deletes, in a few words.
	private static String reread(Resnapshot resnapshot) {
		if (resnapshot == null) {
			return "";
		}
		if (resnapshot.signalId() == null) {
			return "; nothing re-read: " + resnapshot.notSentBecause();
		}
		Map<String, String> narrowed = (resnapshot.tables() != null) ? resnapshot.tables().conditions() : Map.of();
		String said = "; re-read " + (narrowed.isEmpty() ? String.join(", ", resnapshot.collections()) : narrowed);
		return said + ((resnapshot.gapDeletes() != null && !resnapshot.gapDeletes().isEmpty())
				? "; deletes " + resnapshot.gapDeletes() : "");
	}

}
