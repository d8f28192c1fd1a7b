package io.slotkeeper.healing;

import java.util.List;
import java.util.Optional;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.slotkeeper.config.OnLost;
import io.slotkeeper.config.OnMissing;
import io.slotkeeper.config.SlotPolicyProperties;
import io.slotkeeper.failover.FailoverChecks;
import io.slotkeeper.fleet.Target;
import io.slotkeeper.replication.ReplicationSlot;
import io.slotkeeper.slot.changing.SlotService;
import io.slotkeeper.watching.SlotSightings;

/**
 * Heals lost slots whose policy says {@code on-lost: recreate}: on the instance that owns
 * the target, it recreates the slot through the same path as the API (change lock,
 * connector restart, skipped range, audit as {@code slot-keeper}), at most
 * {@code max-recreations-per-hour} attempts per slot, counted where every instance sees
 * them ({@link HealLedger}). Past that it stops and says why. Each attempt is a
 * {@link HealAttempts}' own.
 */
final class SlotHealer {

	private static final Logger logger = LoggerFactory.getLogger(SlotHealer.class);

	private final SlotService slots;

	private final HealBudget budget;

	private final HealAttempts attempts;

	private final OrphanDrops orphans;

	SlotHealer(SlotService slots, HealBudget budget, HealAttempts attempts, OrphanDrops orphans) {
		this.slots = slots;
		this.budget = budget;
		this.attempts = attempts;
		this.orphans = orphans;
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
			if (!slot.invalidated() && this.budget.usableAgain(target.name(), slot.slotName())) {
				logger.info("Slot '{}' of target '{}' is usable again: healing resumes for it", slot.slotName(),
						target.name());
			}
			Optional<SlotPolicyProperties> policy = target.slots()
				.policy(slot.slotName())
				.filter((candidate) -> candidate.onLost() == OnLost.RECREATE);
			if (slot.invalidated() && policy.isPresent() && target.ownership().owned()) {
				healed |= this.attempts.attempt(target, slot.slotName(), policy.get(), HealAttempts.LOST,
						(before) -> this.slots.recreates()
							.recreate(target, null, slot.slotName(), false, null, before));
			}
		}
		return healed;
	}

	/**
	 * Creates again the missing slots of one poll whose policy says
	 * {@code on-missing: recreate}, as last seen.
	 * @param target the target
	 * @param missing the configured slots the primary does not have
	 * @return whether a slot was created
	 */
	boolean healMissing(Target target, List<SlotSightings.Missing> missing) {
		boolean healed = false;
		for (SlotSightings.Missing slot : missing) {
			if (slot.policy().onMissing() == OnMissing.RECREATE && target.ownership().owned()) {
				healed |= this.attempts.attempt(target, slot.name(), slot.policy(), HealAttempts.MISSING,
						(before) -> this.slots.recreates()
							.recreateMissing(target, slot.name(), slot.lastSeen(), before));
			}
		}
		return healed;
	}

	/**
	 * Drops the orphans of one check whose slot's policy says {@code on-orphan: drop}.
	 * @param target the target
	 * @param orphans what the check found on the replicas
	 * @return whether one was dropped
	 */
	boolean dropOrphans(Target target, List<FailoverChecks.Orphan> orphans) {
		return this.orphans.drop(target, orphans);
	}

}
