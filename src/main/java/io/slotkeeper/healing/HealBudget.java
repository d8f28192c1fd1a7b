package io.slotkeeper.healing;

import java.time.Instant;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.slotkeeper.audit.Auditor;
import io.slotkeeper.config.SlotPolicyProperties;
import io.slotkeeper.fleet.Target;
import io.slotkeeper.slot.changing.SlotHappenings;

/**
 * Whether a slot may be healed now: its attempts in the last hour against
 * {@code max-recreations-per-hour}, counted where every instance sees them
 * ({@link HealLedger}), once per instance life where the ledger cannot be kept, and the
 * doubling delay after a failed attempt ({@link HealRetry}). Stopping is said once,
 * logged and audited as a refusal, and lifted when the slot is usable again.
 */
final class HealBudget {

	private static final Logger logger = LoggerFactory.getLogger(HealBudget.class);

	private final HealLedger ledger;

	private final Auditor auditor;

	private final Map<String, String> stopped = new ConcurrentHashMap<>();

	private final Map<String, HealRetry> retries = new ConcurrentHashMap<>();

	HealBudget(HealLedger ledger, Auditor auditor) {
		this.ledger = ledger;
		this.auditor = auditor;
	}

	/**
	 * Whether an attempt may run now; when the budget is spent, says so once.
	 * @param target the target
	 * @param slot the slot
	 * @param policy its policy
	 * @param now the time
	 * @return whether it may
	 */
	boolean allows(Target target, String slot, SlotPolicyProperties policy, Instant now) {
		HealRetry retry = this.retries.get(key(target.name(), slot));
		if (retry != null && now.isBefore(retry.notBefore())) {
			return false;
		}
		int used = this.ledger.attempts(target, slot, now);
		if (used >= policy.maxRecreationsPerHour()) {
			return stop(target, slot,
					"healing stopped: slot was recreated or tried " + used + " times in the last hour"
							+ " (max-recreations-per-hour " + policy.maxRecreationsPerHour()
							+ "); find why it keeps being lost");
		}
		// A refused ledger only: a write that failed once (an outage) is tried again at
		// the next heal.
		String notKept = this.ledger.refusedBecause(target.name());
		if (notKept != null && used >= 1) {
			// Counted only in memory, a budget starts from zero at every restart: a crash
			// loop would recreate the slot
			// at every start. Without the ledger a slot is healed once per instance life.
			return stop(target, slot, "healing stopped: slot was recreated or tried once by this instance and "
					+ notKept + "; so a slot is healed once per instance life");
		}
		return true;
	}

	/**
	 * The last failed attempt of a slot, while its retry is pending.
	 * @param target the target's name
	 * @param slot the slot
	 * @return it, or {@code null}
	 */
	HealRetry retry(String target, String slot) {
		return this.retries.get(key(target, slot));
	}

	void succeeded(Target target, String slot, Instant now) {
		this.ledger.record(target, slot, now, true);
		this.retries.remove(key(target.name(), slot));
		this.stopped.remove(key(target.name(), slot));
	}

	/**
	 * Counts a failed attempt and schedules the next.
	 * @return the retry
	 */
	HealRetry failed(Target target, String slot, Instant now, String detail) {
		this.ledger.record(target, slot, now, false);
		HealRetry next = HealRetry.after(this.retries.get(key(target.name(), slot)), now, detail);
		this.retries.put(key(target.name(), slot), next);
		return next;
	}

	/**
	 * A slot usable again (an operator fixed it by hand): the budget still counts, but
	 * healing is no longer said to be stopped.
	 * @return whether it had been stopped
	 */
	boolean usableAgain(String target, String slot) {
		return this.stopped.remove(key(target, slot)) != null;
	}

	/**
	 * Why healing stopped for slots of a target, by slot.
	 * @param target the target's name
	 * @return the reasons, empty when healing goes on
	 */
	Map<String, String> stopped(String target) {
		Map<String, String> reasons = new TreeMap<>();
		this.stopped.forEach((key, reason) -> {
			if (key.startsWith(target + "/")) {
				reasons.put(key.substring(target.length() + 1), reason);
			}
		});
		return reasons;
	}

	/**
	 * Where a target's heal attempts are counted, when not in its database.
	 * @param target the target's name
	 * @return why they are in memory, {@code null} when they are not
	 */
	String inMemoryBecause(String target) {
		return this.ledger.inMemoryBecause(target);
	}

	private boolean stop(Target target, String slot, String reason) {
		if (this.stopped.putIfAbsent(key(target.name(), slot), reason) == null) {
			logger.warn("Slot '{}' of target '{}' is lost again; {}", slot, target.name(), reason);
			this.auditor.recordRefusal(Auditor.SELF, "slot.heal", target.name(), slot, reason);
			this.auditor.tell(SlotHappenings.notRecreated(target.name(), slot, true, reason));
		}
		return false;
	}

	private static String key(String target, String slot) {
		return target + "/" + slot;
	}

}
