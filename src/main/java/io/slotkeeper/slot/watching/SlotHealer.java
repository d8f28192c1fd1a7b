package io.slotkeeper.slot.watching;

import java.time.Clock;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.slotkeeper.audit.Auditor;
import io.slotkeeper.config.OnLost;
import io.slotkeeper.config.SlotPolicyProperties;
import io.slotkeeper.fleet.Target;
import io.slotkeeper.slot.changing.RecreateResult;
import io.slotkeeper.slot.changing.SlotAudit;
import io.slotkeeper.slot.changing.SlotService;
import io.slotkeeper.slot.reading.ReplicationSlot;

/**
 * Heals lost slots whose policy says {@code on-lost: recreate}: on the instance that owns the target, it recreates
 * the slot through the same path as the API (change lock, connector restart, skipped range, audit as
 * {@code slot-keeper}), at most {@code max-recreations-per-hour} times per slot. Past that it stops and says why.
 */
final class SlotHealer {

	static final String ACTOR = "slot-keeper";

	private static final Logger logger = LoggerFactory.getLogger(SlotHealer.class);

	private final SlotService slots;

	private final Auditor auditor;

	private final Clock clock;

	private final RecreationBudget budget = new RecreationBudget();

	private final Map<String, String> stopped = new ConcurrentHashMap<>();

	SlotHealer(SlotService slots, Auditor auditor, Clock clock) {
		this.slots = slots;
		this.auditor = auditor;
		this.clock = clock;
	}

	/**
	 * Heals the lost slots of one poll.
	 * @param target the target
	 * @param slots what the poll read
	 * @return whether a slot was recreated
	 */
	boolean heal(Target target, List<ReplicationSlot> slots) {
		boolean healed = false;
		for (ReplicationSlot slot : slots) {
			Optional<SlotPolicyProperties> policy = target.policy(slot.slotName())
				.filter((candidate) -> candidate.onLost() == OnLost.RECREATE);
			if (slot.invalidated() && policy.isPresent() && target.ownership().owned()) {
				healed |= recreate(target, slot, policy.get());
			}
		}
		return healed;
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

	private boolean recreate(Target target, ReplicationSlot slot, SlotPolicyProperties policy) {
		String key = target.name() + "/" + slot.slotName();
		Instant now = this.clock.instant();
		int used = this.budget.used(key, now);
		if (used >= policy.maxRecreationsPerHour()) {
			String reason = "healing stopped: slot was recreated " + used + " times in the last hour"
					+ " (max-recreations-per-hour " + policy.maxRecreationsPerHour() + "); find why it keeps being lost";
			if (this.stopped.putIfAbsent(key, reason) == null) {
				logger.warn("Slot '{}' of target '{}' is lost again; {}", slot.slotName(), target.name(), reason);
				this.auditor.recordRefusal(ACTOR, "slot.heal", target.name(), slot.slotName(), reason);
			}
			return false;
		}
		try {
			RecreateResult result = this.auditor.runAs(ACTOR, "slot.heal", target.name(), slot.slotName(),
					Map.of("onLost", "recreate"), () -> this.slots.recreate(target, null, slot.slotName(), false),
					SlotAudit::recreated);
			this.budget.spend(key, now);
			this.stopped.remove(key);
			logger.warn("Slot '{}' of target '{}' was lost and is recreated; its consumer skips {} to {}{}",
					slot.slotName(), target.name(), result.skipped().fromLsn(), result.skipped().toLsn(),
					(result.connector() != null) ? "; " + SlotAudit.describe(result.connector()) : "");
			return true;
		}
		catch (RuntimeException ex) {
			logger.warn("Healing slot '{}' of target '{}' failed: {}", slot.slotName(), target.name(), ex.getMessage());
			return false;
		}
	}

}
