package io.slotkeeper.slot.changing;

import java.util.LinkedHashMap;
import java.util.Map;

import io.slotkeeper.audit.Auditor;
import io.slotkeeper.connect.ConnectorOutcome;
import io.slotkeeper.handover.CompletedHandover;
import io.slotkeeper.lineage.GapDeletes;
import io.slotkeeper.resnapshot.GapDelivery;
import io.slotkeeper.resnapshot.Resnapshot;
import io.slotkeeper.resnapshot.SkippedTable;
import io.slotkeeper.sessions.Lsn;

/**
 * What a slot change says in the audit journal, for changes asked through the API and for
 * healing alike.
 */
public final class SlotAudit {

	private SlotAudit() {
	}

	/**
	 * A dry run.
	 * @param plan what would be done
	 * @return the summary
	 */
	public static Auditor.Summary planned(ChangePlan plan) {
		return new Auditor.Summary("dry-run", 200, plan.summary(), Map.of(), null);
	}

	/**
	 * A change that ran.
	 * @param status the HTTP status answered
	 * @return the summary
	 */
	public static Auditor.Summary done(int status) {
		return new Auditor.Summary("done", status, null, Map.of(), null);
	}

	/**
	 * A recreate that ran: the skipped range and what the connector restart came to.
	 * @param result the recreate
	 * @return the summary
	 */
	public static Auditor.Summary recreated(RecreateResult result) {
		return recreated(result, (result.connector() != null) ? result.connector().describe() : null);
	}

	/**
	 * A recreate whose connector's handover is still to run: audited before it, as the
	 * handover waits on Kafka Connect and may outlive the instance; the handover's end is
	 * audited as {@code slot.handover} ({@link #handedOver(CompletedHandover)}).
	 * @param result the recreate, without its connector's outcome and re-snapshot
	 * @param connector the connector handed over
	 * @return the summary
	 */
	public static Auditor.Summary recreatedBeforeHandover(RecreateResult result, String connector) {
		return recreated(result, connector + ": handover under way (audited as slot.handover when it ends)");
	}

	private static Auditor.Summary recreated(RecreateResult result, String connector) {
		Map<String, String> lsns = new LinkedHashMap<>();
		lsns.put("skippedFrom", String.valueOf(result.skipped().fromLsn()));
		lsns.put("skippedTo", String.valueOf(result.skipped().toLsn()));
		putResnapshot(lsns, result.resnapshot());
		if (result.deletesInGap() != null) {
			lsns.put("deletesInGap", result.deletesInGap().describe());
		}
		if (result.gap() != null) {
			lsns.put("gap", result.gap().describe());
		}
		return new Auditor.Summary("done", 200, result.skipped().note(), lsns, connector);
	}

	/**
	 * A connector handover ended: why it ran (and since when it was kept, when it was),
	 * the position it was aligned to, and the re-snapshot that waited for it.
	 * @param completed the handover
	 * @return the summary
	 */
	public static Auditor.Summary handedOver(CompletedHandover completed) {
		Map<String, String> lsns = new LinkedHashMap<>();
		lsns.put("alignedTo", (completed.position() != null) ? Lsn.format(completed.position()) : "none");
		putResnapshot(lsns, completed.resnapshot());
		return new Auditor.Summary("done", 200,
				completed.reason() + ((completed.keptAt() != null) ? " (kept at " + completed.keptAt() + ")" : ""),
				lsns, completed.connector().describe());
	}

	/**
	 * A re-snapshot slot-keeper sent by itself: the second signal for tables skipped
	 * after a recreate.
	 * @param resnapshot what was sent, or why not
	 * @return the summary
	 */
	public static Auditor.Summary resnapshotted(Resnapshot resnapshot) {
		Map<String, String> lsns = new LinkedHashMap<>();
		putResnapshot(lsns, resnapshot);
		return new Auditor.Summary((resnapshot.signalId() != null) ? "done" : "failed", 200,
				(resnapshot.tables() != null) ? resnapshot.tables().why() : null, lsns, null);
	}

	/**
	 * The deletes of a recreate's gap counted again once the counters had time to show
	 * late commits.
	 * @param counted the new count
	 * @return the summary
	 */
	public static Auditor.Summary deletesCounted(GapDeletes counted) {
		return new Auditor.Summary("done", 200, counted.measured(), Map.of("deletesInGap", counted.describe()), null);
	}

	/**
	 * What became of a gap's signals to the Debezium extension, as its acknowledgements
	 * tell.
	 * @param delivery the delivery, finished
	 * @return the summary: done when every signal was delivered, failed otherwise
	 */
	public static Auditor.Summary gapDelivered(GapDelivery delivery) {
		return new Auditor.Summary(delivery.delivered() ? "done" : "failed", 200,
				"acknowledgements read in " + delivery.signalTable(),
				Map.of("gapDelivery", delivery.described().toString()), null);
	}

	private static void putResnapshot(Map<String, String> lsns, Resnapshot resnapshot) {
		if (resnapshot == null) {
			return;
		}
		StringBuilder said = new StringBuilder((resnapshot.signalId() != null)
				? "signal " + resnapshot.signalId() + " for " + String.join(", ", resnapshot.collections())
				: "not sent: " + resnapshot.notSentBecause());
		if (resnapshot.tables() != null && !resnapshot.tables().skipped().isEmpty()) {
			said.append("; skipped as unchanged: ")
				.append(String.join(", ", resnapshot.tables().skipped().stream().map(SkippedTable::table).toList()));
		}
		else if (resnapshot.tables() != null) {
			said.append("; ").append(resnapshot.tables().why());
		}
		if (resnapshot.tables() != null && !resnapshot.tables().conditions().isEmpty()) {
			said.append("; narrowed: ").append(resnapshot.tables().conditions());
		}
		if (resnapshot.tables() != null && !resnapshot.tables().readWhole().isEmpty()) {
			said.append("; read whole: ").append(resnapshot.tables().readWhole());
		}
		lsns.put("resnapshot", said.toString());
		if (resnapshot.gapDeletes() != null && !resnapshot.gapDeletes().isEmpty()) {
			lsns.put("gapDeletes", resnapshot.gapDeletes().toString());
		}
	}

	/**
	 * A connector restart asked for through the API.
	 * @param outcome what it came to
	 * @return the summary
	 */
	public static Auditor.Summary restarted(ConnectorOutcome outcome) {
		return new Auditor.Summary("done", 200, null, Map.of(), describe(outcome));
	}

	/**
	 * A connector restart in one line.
	 * @param outcome what it came to
	 * @return the line
	 */
	public static String describe(ConnectorOutcome outcome) {
		return outcome.connector() + (outcome.restarted() ? " restarted" : " not restarted") + " (status "
				+ outcome.status() + ", " + outcome.attempts() + " attempt(s))"
				+ ((outcome.detail() != null) ? ": " + outcome.detail() : "");
	}

}
