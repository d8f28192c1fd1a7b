package io.slotkeeper.slot.changing;

import java.util.LinkedHashMap;
import java.util.Map;

import io.slotkeeper.audit.Auditor;
import io.slotkeeper.connect.ConnectorOutcome;

/**
 * What a slot change says in the audit journal, for changes asked through the API and for healing alike.
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
		Map<String, String> lsns = new LinkedHashMap<>();
		lsns.put("skippedFrom", String.valueOf(result.skipped().fromLsn()));
		lsns.put("skippedTo", String.valueOf(result.skipped().toLsn()));
		if (result.resnapshot() != null) {
			lsns.put("resnapshot", (result.resnapshot().signalId() != null) ? "signal " + result.resnapshot().signalId()
					+ " for " + String.join(", ", result.resnapshot().collections())
					: "not sent: " + result.resnapshot().notSentBecause());
		}
		return new Auditor.Summary("done", 200, result.skipped().note(), lsns,
				(result.connector() != null) ? result.connector().describe() : null);
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
