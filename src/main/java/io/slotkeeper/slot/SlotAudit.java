package io.slotkeeper.slot;

import java.util.LinkedHashMap;
import java.util.Map;

import io.slotkeeper.audit.Auditor;
import io.slotkeeper.connect.ConnectorOutcome;

/**
 * What a slot change says in the audit journal, for changes asked through the API and for healing alike.
 */
final class SlotAudit {

	private SlotAudit() {
	}

	static Auditor.Summary summary(SlotService.Changed<?> changed, int status, Map<String, String> lsns) {
		if (changed.plan() != null) {
			return new Auditor.Summary("dry-run", 200,
					changed.plan().wouldBeRefused() ? "would be refused: " + changed.plan().refusal().detail()
							: String.join("; ", changed.plan().steps()),
					Map.of(), null);
		}
		String connector = (changed.result() instanceof RecreateResult recreated && recreated.connector() != null)
				? describe(recreated.connector()) : null;
		return new Auditor.Summary("done", status, null, lsns, connector);
	}

	static Map<String, String> lsns(RecreateResult result) {
		Map<String, String> lsns = new LinkedHashMap<>();
		lsns.put("skippedFrom", String.valueOf(result.skipped().fromLsn()));
		lsns.put("skippedTo", String.valueOf(result.skipped().toLsn()));
		return lsns;
	}

	static String describe(ConnectorOutcome outcome) {
		return outcome.connector() + (outcome.restarted() ? " restarted" : " not restarted") + " (status "
				+ outcome.status() + ", " + outcome.attempts() + " attempt(s))"
				+ ((outcome.detail() != null) ? ": " + outcome.detail() : "");
	}

}
