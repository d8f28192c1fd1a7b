package io.slotkeeper.overview;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import io.slotkeeper.connect.ConnectorStatus;
import io.slotkeeper.replication.ReplicationSlot;
import io.slotkeeper.replication.SlotBudget;
import io.slotkeeper.replication.SlotView;
import io.slotkeeper.settings.SettingFinding;
import io.slotkeeper.watching.SlotInsights;

/**
 * What is wrong with one slot, by the rules of the {@code slots} health (lost, missing, a
 * failed connector are down) and its warnings (past the limit, soon lost, not confirmed,
 * not streaming, not failover-ready, its connector's settings defeating what slot-keeper
 * does).
 */
final class SlotFindings {

	private SlotFindings() {
	}

	static List<Finding> of(SlotView view, Duration lossWarning) {
		List<Finding> findings = new ArrayList<>();
		ReplicationSlot slot = view.slot();
		if (view.missing()) {
			findings.add(new Finding(Severity.DOWN, slot.slotName() + " is configured but not on the primary: its "
					+ "consumer cannot stream (recreate it)"));
		}
		else if (slot.invalidated()) {
			findings.add(new Finding(Severity.DOWN, slot.slotName() + " was invalidated by the server ("
					+ slot.invalidation() + "): it can never be read again (recreate it)"));
		}
		connector(view.connector(), findings);
		if (view.connectorSettings() != null) {
			view.connectorSettings()
				.findings()
				.stream()
				.filter((finding) -> !SettingFinding.INFO.equals(finding.severity()))
				.forEach((finding) -> findings.add(new Finding(Severity.WARNING,
						"connector " + view.connectorSettings().connector() + ", " + finding.setting() + " = "
								+ finding.value() + " (" + finding.severity() + "): " + finding.message())));
		}
		if ("unreserved".equals(slot.walStatus())) {
			findings.add(new Finding(Severity.WARNING, slot.slotName() + " is past max_slot_wal_keep_size: it will be "
					+ "lost at the next checkpoint unless its consumer catches up"));
		}
		Double secondsToLoss = view.insight().soonestLoss();
		if (secondsToLoss != null && secondsToLoss < lossWarning.toSeconds()) {
			SlotBudget budget = view.insight().budget();
			findings.add(new Finding(Severity.WARNING,
					slot.slotName() + " will be lost in about " + Durations.words(Math.round(secondsToLoss))
							+ ((budget != null && secondsToLoss.equals(budget.secondsLeft()))
									? ", its consumer gone for " + Durations.words(budget.goneSeconds())
											+ ", at the WAL the server wrote over the last hour"
									: " at the rate its safe_wal_size shrinks")));
		}
		String diagnosis = view.insight().diagnosis();
		if (diagnosis != null && !view.missing() && !slot.invalidated() && !SlotInsights.OK.equals(diagnosis)) {
			findings.add(new Finding(Severity.WARNING, slot.slotName() + ": " + diagnosis));
		}
		if (Boolean.FALSE.equals(view.failover().failoverReady())) {
			findings.add(new Finding(Severity.WARNING,
					slot.slotName() + " would not survive a failover: " + view.failover().failoverReason()));
		}
		return findings;
	}

	private static void connector(ConnectorStatus status, List<Finding> findings) {
		if (status == null || status.running()) {
			return;
		}
		findings.add(new Finding(status.failed() ? Severity.DOWN : Severity.WARNING,
				"connector " + status.connector() + ": " + status.summary()));
	}

}
