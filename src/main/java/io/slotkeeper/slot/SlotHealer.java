package io.slotkeeper.slot;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Predicate;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.slotkeeper.audit.Auditor;
import io.slotkeeper.config.OnLost;
import io.slotkeeper.config.SlotPolicyProperties;
import io.slotkeeper.config.TargetProperties;

/**
 * Heals lost slots whose policy says {@code on-lost: recreate}: on the instance that owns the target, it recreates
 * the slot through the same path as the API (change lock, connector restart, skipped range, audit as
 * {@code slot-keeper}), at most {@code max-recreations-per-hour} times per slot. Past that it stops and says why.
 */
final class SlotHealer {

	static final String ACTOR = "slot-keeper";

	private static final Logger logger = LoggerFactory.getLogger(SlotHealer.class);

	private static final Duration WINDOW = Duration.ofHours(1);

	private final SlotService slots;

	private final Auditor auditor;

	private final Predicate<String> owns;

	private final Clock clock;

	private final Map<String, Deque<Instant>> recreations = new ConcurrentHashMap<>();

	private final Map<String, String> stopped = new ConcurrentHashMap<>();

	SlotHealer(SlotService slots, Auditor auditor, Predicate<String> owns, Clock clock) {
		this.slots = slots;
		this.auditor = auditor;
		this.owns = owns;
		this.clock = clock;
	}

	/**
	 * Heals the lost slots of one poll.
	 * @param target the target
	 * @param snapshot what the poll read
	 * @return whether a slot was recreated
	 */
	boolean heal(TargetProperties target, SlotSnapshot snapshot) {
		boolean healed = false;
		for (SlotView slot : snapshot.slots()) {
			Optional<SlotPolicyProperties> policy = target.slotPolicy(slot.slotName())
				.filter((candidate) -> candidate.onLost() == OnLost.RECREATE);
			if (slot.invalidated() && policy.isPresent() && this.owns.test(target.name())) {
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
		Map<String, String> reasons = new java.util.TreeMap<>();
		this.stopped.forEach((key, reason) -> {
			if (key.startsWith(target + "/")) {
				reasons.put(key.substring(target.length() + 1), reason);
			}
		});
		return reasons;
	}

	private boolean recreate(TargetProperties target, SlotView slot, SlotPolicyProperties policy) {
		String key = target.name() + "/" + slot.slotName();
		Instant now = this.clock.instant();
		Deque<Instant> recent = this.recreations.computeIfAbsent(key, (name) -> new ArrayDeque<>());
		while (!recent.isEmpty() && recent.peekFirst().isBefore(now.minus(WINDOW))) {
			recent.removeFirst();
		}
		if (recent.size() >= policy.maxRecreationsPerHour()) {
			String reason = "healing stopped: slot was recreated " + recent.size() + " times in the last hour"
					+ " (max-recreations-per-hour " + policy.maxRecreationsPerHour() + "); find why it keeps being lost";
			if (this.stopped.putIfAbsent(key, reason) == null) {
				logger.warn("Slot '{}' of target '{}' is lost again; {}", slot.slotName(), target.name(), reason);
				this.auditor.recordRefusal(ACTOR, "slot.heal", target.name(), slot.slotName(), reason);
			}
			return false;
		}
		try {
			RecreateResult result = this.auditor.runAs(ACTOR, "slot.heal", target.name(), slot.slotName(),
					Map.of("onLost", "recreate"), () -> this.slots.recreate(target.name(), null, slot.slotName(), false, false),
					(changed) -> SlotAudit.summary(changed, 200, SlotAudit.lsns(changed.result()))).result();
			recent.addLast(now);
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
