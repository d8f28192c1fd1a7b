package io.slotkeeper.healing;

import java.time.Clock;
import java.time.Instant;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Function;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.slotkeeper.audit.Auditor;
import io.slotkeeper.config.SlotPolicyProperties;
import io.slotkeeper.fleet.Target;
import io.slotkeeper.handover.CompletedHandover;
import io.slotkeeper.slot.changing.BeforeHandover;
import io.slotkeeper.slot.changing.RecreateResult;
import io.slotkeeper.slot.changing.SlotAudit;
import io.slotkeeper.slot.changing.SlotHappenings;

/**
 * One heal of a lost or missing slot, within its budget ({@link HealBudget}): the
 * recreate run, counted, audited as {@code slot.heal} by {@code slot-keeper} (and its
 * connector's handover, when it has one, as {@code slot.handover}) and logged; a failed
 * one counted towards its retry's doubling delay. A retry that fails as the attempt
 * before it did is neither audited nor logged again.
 */
final class HealAttempts {

	/** The audit's parameters of a heal of a lost slot. */
	static final Map<String, Object> LOST = Map.of("onLost", "recreate");

	/** The audit's parameters of a heal of a missing slot. */
	static final Map<String, Object> MISSING = Map.of("onMissing", "recreate");

	private static final Logger logger = LoggerFactory.getLogger(HealAttempts.class);

	private final HealBudget budget;

	private final Auditor auditor;

	private final Clock clock;

	HealAttempts(HealBudget budget, Auditor auditor, Clock clock) {
		this.budget = budget;
		this.auditor = auditor;
		this.clock = clock;
	}

	/**
	 * Heals the slot when its budget allows.
	 * @param target the target
	 * @param slot the slot's name
	 * @param policy its policy
	 * @param parameters {@link #LOST} or {@link #MISSING}
	 * @param recreate the recreate, telling what it gives when its connector's handover
	 * is about to run
	 * @return whether it was recreated
	 */
	boolean attempt(Target target, String slot, SlotPolicyProperties policy, Map<String, Object> parameters,
			Function<BeforeHandover, RecreateResult> recreate) {
		Instant now = this.clock.instant();
		if (!this.budget.allows(target, slot, policy, now)) {
			return false;
		}
		HealRetry retry = this.budget.retry(target.name(), slot);
		try {
			RecreateResult result = audited(target, slot, parameters, retry, recreate);
			this.budget.succeeded(target, slot, now);
			logger.warn("Slot '{}' of target '{}' was {} and is recreated; its consumer skips {} to {}{}", slot,
					target.name(), (parameters == LOST) ? "lost" : "missing", result.skipped().fromLsn(),
					result.skipped().toLsn(), (result.connector() != null) ? "; " + result.connector().describe() : "");
			return true;
		}
		catch (RuntimeException ex) {
			HealRetry next = this.budget.failed(target, slot, now, ex.getMessage());
			if (retry == null || !next.detail().equals(retry.detail())) {
				logger.warn("Healing slot '{}' of target '{}' failed: {}; trying again in {} s", slot, target.name(),
						ex.getMessage(), next.delay().toSeconds());
			}
			return false;
		}
	}

	// A retry that fails as the attempt before it did is not audited again: a slot
	// refused at every poll would push operators' entries out of the journal. A heal
	// whose connector is handed over is audited once the slot is made, before the
	// handover: the handover waits on Kafka Connect, and an instance ended during it
	// would leave the heal unaudited; its end is audited as slot.handover.
	private RecreateResult audited(Target target, String slot, Map<String, Object> parameters, HealRetry retry,
			Function<BeforeHandover, RecreateResult> recreate) {
		AtomicReference<RecreateResult> beforeHandover = new AtomicReference<>();
		RecreateResult result;
		try {
			result = recreate.apply((recreated, connector) -> {
				beforeHandover.set(recreated);
				healed(target, slot, parameters, recreated, SlotAudit.recreatedBeforeHandover(recreated, connector));
			});
		}
		catch (RuntimeException ex) {
			if (beforeHandover.get() != null) {
				this.auditor.recordFailure(Auditor.SELF, "slot.handover", target.name(), slot, Map.of(), ex);
				this.auditor.tell(SlotHappenings.handoverFailed(target.name(), slot, String.valueOf(ex.getMessage())));
				logger.warn("The connector handover after the heal of slot '{}' of target '{}' failed: {}", slot,
						target.name(), ex.getMessage());
				return beforeHandover.get();
			}
			if (retry == null || !retry.detail().equals(String.valueOf(ex.getMessage()))) {
				this.auditor.recordFailure(Auditor.SELF, "slot.heal", target.name(), slot, parameters, ex);
				this.auditor
					.tell(SlotHappenings.notRecreated(target.name(), slot, false, String.valueOf(ex.getMessage())));
			}
			throw ex;
		}
		if (beforeHandover.get() == null) {
			healed(target, slot, parameters, result, SlotAudit.recreated(result));
		}
		else {
			CompletedHandover ended = new CompletedHandover(slot, result.skipped().toPosition(), null,
					"after the heal of slot " + slot, result.connector(), result.resnapshot());
			this.auditor.recordOutcome(Auditor.SELF, "slot.handover", target.name(), slot, Map.of(),
					SlotAudit.handedOver(ended));
			this.auditor.tell(SlotHappenings.handedOver(target.name(), ended));
		}
		return result;
	}

	private void healed(Target target, String slot, Map<String, Object> parameters, RecreateResult recreated,
			Auditor.Summary summary) {
		this.auditor.recordOutcome(Auditor.SELF, "slot.heal", target.name(), slot, parameters, summary);
		SlotHappenings.recreated(target.name(), slot, parameters == LOST, recreated).forEach(this.auditor::tell);
	}

}
