package io.slotkeeper.healing;

import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.slotkeeper.audit.Auditor;
import io.slotkeeper.config.ConnectorOffsets;
import io.slotkeeper.config.SlotPolicyProperties;
import io.slotkeeper.fleet.Target;
import io.slotkeeper.handover.CompletedHandover;
import io.slotkeeper.problem.ProblemException;
import io.slotkeeper.sessions.Lsn;
import io.slotkeeper.slot.changing.RecreateResult;
import io.slotkeeper.slot.changing.SlotAudit;
import io.slotkeeper.slot.changing.SlotHappenings;
import io.slotkeeper.slot.changing.SlotService;
import io.slotkeeper.watching.SlotSightings;

/**
 * What the owner of a target does for the connectors of its slots at each poll, beside
 * healing: hands them over to slots another manager made anew, aligns those whose task
 * failed on a stored offset older than the slot, completes handovers that waited for
 * Kafka Connect, and rechecks re-snapshots and gap counts when due; each audited as
 * {@code slot-keeper}.
 */
final class ConnectorDuties {

	private static final Logger logger = LoggerFactory.getLogger(ConnectorDuties.class);

	private final SlotService slots;

	private final Auditor auditor;

	private final Set<String> aligned = ConcurrentHashMap.newKeySet();

	ConnectorDuties(SlotService slots, Auditor auditor) {
		this.slots = slots;
		this.auditor = auditor;
	}

	/**
	 * Hands the connectors of slots another manages over to the slots their manager made
	 * anew, on the instance that owns the target, and audits each as
	 * {@code slot.made-anew}; one that failed is tried again at the next poll unless the
	 * slot is lost again. Heal budgets are not used: slot-keeper recreated nothing.
	 * @param target the target
	 * @param made the slots made anew since the last poll
	 * @param again keeps a slot for the next poll
	 */
	void handOverMadeAnew(Target target, List<SlotSightings.MadeAnew> made, Consumer<SlotSightings.MadeAnew> again) {
		if (!target.ownership().owned()) {
			return;
		}
		for (SlotSightings.MadeAnew slot : made) {
			String name = slot.now().slotName();
			String manager = slot.policy().managedBy().configName();
			Map<String, Object> parameters = Map.of("managedBy", manager);
			try {
				RecreateResult result = this.slots.recreates().madeAnew(target, name, slot.lastSeen(), manager);
				this.auditor.recordOutcome(Auditor.SELF, "slot.made-anew", target.name(), name, parameters,
						SlotAudit.recreated(result));
				logger.warn("Slot '{}' of target '{}' was made anew by {}; its consumer skips {} to {}{}", name,
						target.name(), manager, result.skipped().fromLsn(), result.skipped().toLsn(),
						(result.connector() != null) ? "; " + result.connector().describe() : "");
			}
			catch (RuntimeException ex) {
				// A refusal (the slot lost again, gone) waits for the next slot the
				// manager makes; a failure (the
				// target down) is tried again.
				boolean refused = ex instanceof ProblemException problem && problem.kind().refusal();
				this.auditor.recordFailure(Auditor.SELF, "slot.made-anew", target.name(), name, parameters, ex);
				logger.warn("Handing the connector of slot '{}' of target '{}' over to the slot {} made anew {}: {}{}",
						name, target.name(), manager, refused ? "was refused" : "failed", ex.getMessage(),
						refused ? "" : "; trying again at the next poll");
				if (!refused) {
					again.accept(slot);
				}
			}
		}
	}

	/**
	 * Keeps a handover for each slot whose connector's task failed on a stored offset
	 * older than the slot, when the slot's policy heals ({@code on-lost} or
	 * {@code on-missing: recreate}) or another manages the slot, and its offsets are not
	 * left alone: the connector is then aligned to the slot's confirmed position and
	 * re-snapshotted like after a recreate. Once per slot and position, so that a task
	 * failing again for another reason is not handed over in a loop.
	 * @param target the target
	 * @param stale the slots whose connector failed so
	 */
	void alignStaleOffsets(Target target, Map<String, StaleOffsets.Stale> stale) {
		if (!target.ownership().owned()) {
			return;
		}
		stale.forEach((name, found) -> target.slots()
			.policy(name)
			.filter(SlotPolicyProperties::actsOnLoss)
			.filter((policy) -> policy.connector().offsets() != ConnectorOffsets.LEAVE)
			.filter((policy) -> this.aligned.add(target.name() + "/" + name + "@" + found.slot().confirmedFlushLsn()))
			.ifPresent((policy) -> {
				logger.warn(
						"The connector '{}' of slot '{}' (target '{}') failed on a stored offset older than its"
								+ " slot: aligning it to {}",
						policy.connector().name(), name, target.name(), found.slot().confirmedFlushLsn());
				this.slots.followUps()
					.keepHandover(target, name, policy.connector().name(), Lsn.parse(found.slot().confirmedFlushLsn()),
							"its task failed on a stored offset older than" + " the slot (" + found.summary() + ")");
			}));
	}

	/**
	 * Completes the connector handovers of recreates that waited for Kafka Connect to
	 * answer, and audits each as {@code slot.handover}; only the target's owner does, as
	 * only it heals.
	 * @param target the target
	 */
	void completeHandovers(Target target) {
		if (!target.ownership().owned()) {
			return;
		}
		for (CompletedHandover done : this.slots.followUps().completePendingHandovers(target)) {
			this.auditor.recordOutcome(Auditor.SELF, "slot.handover", target.name(), done.slot(), Map.of(),
					SlotAudit.handedOver(done));
			this.auditor.tell(SlotHappenings.handedOver(target.name(), done));
		}
	}

	/**
	 * Reads the tables a re-snapshot after a recreate skipped once more, when due, and
	 * audits each second signal as {@code slot.resnapshot}.
	 * @param target the target
	 */
	void recheckResnapshots(Target target) {
		this.slots.followUps()
			.resnapshots()
			.recheck(target)
			.forEach((slot, sent) -> this.auditor.recordOutcome(Auditor.SELF, "slot.resnapshot", target.name(), slot,
					Map.of(), SlotAudit.resnapshotted(sent)));
		this.slots.followUps().resnapshots().checkDeliveries(target).forEach((slot, delivery) -> {
			this.auditor.recordOutcome(Auditor.SELF, "slot.gap-delivery", target.name(), slot, Map.of(),
					SlotAudit.gapDelivered(delivery));
			this.auditor.tell(SlotHappenings.gapDelivered(target.name(), slot, delivery));
		});
		this.slots.followUps()
			.recountGapDeletes(target)
			.forEach((slot, counted) -> this.auditor.recordOutcome(Auditor.SELF, "slot.gap-deletes", target.name(),
					slot, Map.of(), SlotAudit.deletesCounted(counted)));
	}

	/**
	 * Exports the target's re-snapshot and gap counters at 0 before the first re-snapshot
	 * and recreate.
	 * @param target the target
	 */
	void primeCounters(Target target) {
		this.slots.followUps().resnapshots().prime(target);
		this.slots.followUps().primeGapCounts(target);
	}

	/**
	 * Whether a re-snapshot recheck waits for the target.
	 * @param target the target
	 * @return whether one waits
	 */
	boolean rechecksWaiting(Target target) {
		return this.slots.followUps().resnapshots().rechecksWaiting(target)
				|| this.slots.followUps().gapDeletesWaiting(target);
	}

}
