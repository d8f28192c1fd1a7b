package io.slotkeeper.slot.watching;

import java.time.Clock;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.slotkeeper.audit.Auditor;
import io.slotkeeper.config.ConnectorOffsets;
import io.slotkeeper.config.OnLost;
import io.slotkeeper.config.OnMissing;
import io.slotkeeper.config.SlotPolicyProperties;
import io.slotkeeper.fleet.Lsn;
import io.slotkeeper.fleet.Target;
import io.slotkeeper.problem.ProblemException;
import io.slotkeeper.slot.changing.CompletedHandover;
import io.slotkeeper.slot.changing.RecreateResult;
import io.slotkeeper.slot.changing.SlotAudit;
import io.slotkeeper.slot.changing.SlotService;
import io.slotkeeper.slot.reading.ReplicationSlot;

/**
 * Heals lost slots whose policy says {@code on-lost: recreate}: on the instance that owns the target, it recreates
 * the slot through the same path as the API (change lock, connector restart, skipped range, audit as
 * {@code slot-keeper}), at most {@code max-recreations-per-hour} attempts per slot, counted where every instance sees
 * them ({@link HealLedger}). Past that it stops and says why. A failed attempt is tried again after a doubling delay;
 * a retry that fails the same way is not audited again.
 */
final class SlotHealer {


	private static final Logger logger = LoggerFactory.getLogger(SlotHealer.class);

	private final SlotService slots;

	private final Auditor auditor;

	private final java.util.Set<String> aligned = ConcurrentHashMap.newKeySet();

	private final Clock clock;

	private static final Map<String, Object> LOST = Map.of("onLost", "recreate");

	private static final Map<String, Object> MISSING = Map.of("onMissing", "recreate");

	private final HealLedger ledger;

	private final Map<String, String> stopped = new ConcurrentHashMap<>();

	private final Map<String, HealRetry> retries = new ConcurrentHashMap<>();

	private final OrphanDrops orphans;

	private final KeepSizeGuard keepSize;

	SlotHealer(SlotService slots, Auditor auditor, Clock clock) {
		this(slots, auditor, clock, HealLedger.inTargets());
	}

	SlotHealer(SlotService slots, Auditor auditor, Clock clock, HealLedger ledger) {
		this.slots = slots;
		this.auditor = auditor;
		this.clock = clock;
		this.ledger = ledger;
		this.orphans = new OrphanDrops(slots, auditor);
		this.keepSize = new KeepSizeGuard(auditor, clock);
	}

	/**
	 * The guard of {@code slots[n].on-outage}: raises the server's {@code max_slot_wal_keep_size} while an opted-in
	 * slot's consumer is gone and its budget is low, and puts it back.
	 * @return the guard
	 */
	KeepSizeGuard keepSize() {
		return this.keepSize;
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
			// An operator fixed it by hand: the budget still counts, but healing is no longer said to be stopped.
			if (!slot.invalidated() && this.stopped.remove(target.name() + "/" + slot.slotName()) != null) {
				logger.info("Slot '{}' of target '{}' is usable again: healing resumes for it", slot.slotName(),
						target.name());
			}
			Optional<SlotPolicyProperties> policy = target.policy(slot.slotName())
				.filter((candidate) -> candidate.onLost() == OnLost.RECREATE);
			if (slot.invalidated() && policy.isPresent() && target.ownership().owned()) {
				healed |= attempt(target, slot.slotName(), policy.get(), LOST,
						() -> this.slots.recreate(target, null, slot.slotName(), false, null));
			}
		}
		return healed;
	}

	/**
	 * Creates again the missing slots of one poll whose policy says {@code on-missing: recreate}, as last seen.
	 * @param target the target
	 * @param missing the configured slots the primary does not have
	 * @return whether a slot was created
	 */
	boolean healMissing(Target target, List<SlotSightings.Missing> missing) {
		boolean healed = false;
		for (SlotSightings.Missing slot : missing) {
			if (slot.policy().onMissing() == OnMissing.RECREATE && target.ownership().owned()) {
				healed |= attempt(target, slot.name(), slot.policy(), MISSING,
						() -> this.slots.recreateMissing(target, slot.name(), slot.lastSeen()));
			}
		}
		return healed;
	}

	/**
	 * Hands the connectors of slots another manages over to the slots their manager made anew, on the instance that
	 * owns the target, and audits each as {@code slot.made-anew}; one that failed is tried again at the next poll
	 * unless the slot is lost again. Heal budgets are not used: slot-keeper recreated nothing.
	 * @param target the target
	 * @param made the slots made anew since the last poll
	 * @param again keeps a slot for the next poll
	 */
	void handOverMadeAnew(Target target, List<SlotSightings.MadeAnew> made,
			java.util.function.Consumer<SlotSightings.MadeAnew> again) {
		if (!target.ownership().owned()) {
			return;
		}
		for (SlotSightings.MadeAnew slot : made) {
			String name = slot.now().slotName();
			String manager = slot.policy().managedBy().configName();
			Map<String, Object> parameters = Map.of("managedBy", manager);
			try {
				RecreateResult result = this.slots.madeAnew(target, name, slot.lastSeen(), manager);
				this.auditor.recordOutcome(Auditor.SELF, "slot.made-anew", target.name(), name, parameters,
						SlotAudit.recreated(result));
				logger.warn("Slot '{}' of target '{}' was made anew by {}; its consumer skips {} to {}{}", name,
						target.name(), manager, result.skipped().fromLsn(), result.skipped().toLsn(),
						(result.connector() != null) ? "; " + result.connector().describe() : "");
			}
			catch (RuntimeException ex) {
				// A refusal (the slot lost again, gone) waits for the next slot the manager makes; a failure (the
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
	 * Keeps a handover for each slot whose connector's task failed on a stored offset older than the slot, when the
	 * slot's policy heals ({@code on-lost} or {@code on-missing: recreate}) or another manages the slot, and its
	 * offsets are not left alone: the connector is then aligned to the slot's confirmed position and re-snapshotted like after a recreate. Once per
	 * slot and position, so that a task failing again for another reason is not handed over in a loop.
	 * @param target the target
	 * @param stale the slots whose connector failed so
	 */
	void alignStaleOffsets(Target target, Map<String, StaleOffsets.Stale> stale) {
		if (!target.ownership().owned()) {
			return;
		}
		stale.forEach((name, found) -> target.policy(name)
			.filter(SlotPolicyProperties::actsOnLoss)
			.filter((policy) -> policy.connector().offsets() != ConnectorOffsets.LEAVE)
			.filter((policy) -> this.aligned.add(target.name() + "/" + name + "@" + found.slot().confirmedFlushLsn()))
			.ifPresent((policy) -> {
				logger.warn("The connector '{}' of slot '{}' (target '{}') failed on a stored offset older than its"
						+ " slot: aligning it to {}", policy.connector().name(), name, target.name(),
						found.slot().confirmedFlushLsn());
				this.slots.keepHandover(target, name, policy.connector().name(),
						Lsn.parse(found.slot().confirmedFlushLsn()), "its task failed on a stored offset older than"
								+ " the slot (" + found.summary() + ")");
			}));
	}

	/**
	 * Completes the connector handovers of recreates that waited for Kafka Connect to answer, and audits each as
	 * {@code slot.handover}; only the target's owner does, as only it heals.
	 * @param target the target
	 */
	void completeHandovers(Target target) {
		if (!target.ownership().owned()) {
			return;
		}
		for (CompletedHandover done : this.slots.completePendingHandovers(target)) {
			this.auditor.recordOutcome(Auditor.SELF, "slot.handover", target.name(), done.slot(), Map.of(),
					SlotAudit.handedOver(done));
		}
	}

	/**
	 * Reads the tables a re-snapshot after a recreate skipped once more, when due, and audits each second signal as
	 * {@code slot.resnapshot}.
	 * @param target the target
	 */
	void recheckResnapshots(Target target) {
		this.slots.resnapshots().recheck(target).forEach((slot, sent) -> this.auditor.recordOutcome(Auditor.SELF,
				"slot.resnapshot", target.name(), slot, Map.of(), SlotAudit.resnapshotted(sent)));
		this.slots.recountGapDeletes(target).forEach((slot, counted) -> this.auditor.recordOutcome(Auditor.SELF,
				"slot.gap-deletes", target.name(), slot, Map.of(), SlotAudit.deletesCounted(counted)));
	}

	/**
	 * Exports the target's re-snapshot and gap counters at 0 before the first re-snapshot and recreate.
	 * @param target the target
	 */
	void primeCounters(Target target) {
		this.slots.resnapshots().prime(target);
		this.slots.primeGapCounts(target);
	}

	/**
	 * Whether a re-snapshot recheck waits for the target.
	 * @param target the target
	 * @return whether one waits
	 */
	boolean rechecksWaiting(Target target) {
		return this.slots.resnapshots().rechecksWaiting(target) || this.slots.gapDeletesWaiting(target);
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

	/**
	 * Where a target's heal attempts are counted, when not in its database.
	 * @param target the target's name
	 * @return why they are in memory, {@code null} when they are not
	 */
	String budgetInMemoryBecause(String target) {
		return this.ledger.inMemoryBecause(target);
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

	private boolean attempt(Target target, String slot, SlotPolicyProperties policy, Map<String, Object> parameters,
			Supplier<RecreateResult> recreate) {
		String key = target.name() + "/" + slot;
		Instant now = this.clock.instant();
		HealRetry retry = this.retries.get(key);
		if (retry != null && now.isBefore(retry.notBefore())) {
			return false;
		}
		int used = this.ledger.attempts(target, slot, now);
		if (used >= policy.maxRecreationsPerHour()) {
			String reason = "healing stopped: slot was recreated or tried " + used + " times in the last hour"
					+ " (max-recreations-per-hour " + policy.maxRecreationsPerHour() + "); find why it keeps being lost";
			if (this.stopped.putIfAbsent(key, reason) == null) {
				logger.warn("Slot '{}' of target '{}' is lost again; {}", slot, target.name(), reason);
				this.auditor.recordRefusal(Auditor.SELF, "slot.heal", target.name(), slot, reason);
			}
			return false;
		}
		// A refused ledger only: a write that failed once (an outage) is tried again at the next heal.
		String notKept = this.ledger.refusedBecause(target.name());
		if (notKept != null && used >= 1) {
			// Counted only in memory, a budget starts from zero at every restart: a crash loop would recreate the slot
			// at every start. Without the ledger a slot is healed once per instance life.
			String reason = "healing stopped: slot was recreated or tried once by this instance and " + notKept
					+ "; so a slot is healed once per instance life";
			if (this.stopped.putIfAbsent(key, reason) == null) {
				logger.warn("Slot '{}' of target '{}' is lost again; {}", slot, target.name(), reason);
				this.auditor.recordRefusal(Auditor.SELF, "slot.heal", target.name(), slot, reason);
			}
			return false;
		}
		try {
			RecreateResult result = audited(target, slot, parameters, retry, recreate);
			this.ledger.record(target, slot, now, true);
			this.retries.remove(key);
			this.stopped.remove(key);
			logger.warn("Slot '{}' of target '{}' was {} and is recreated; its consumer skips {} to {}{}", slot,
					target.name(), (parameters == LOST) ? "lost" : "missing", result.skipped().fromLsn(),
					result.skipped().toLsn(),
					(result.connector() != null) ? "; " + result.connector().describe() : "");
			return true;
		}
		catch (RuntimeException ex) {
			this.ledger.record(target, slot, now, false);
			HealRetry next = HealRetry.after(retry, now, ex.getMessage());
			this.retries.put(key, next);
			if (retry == null || !next.detail().equals(retry.detail())) {
				logger.warn("Healing slot '{}' of target '{}' failed: {}; trying again in {} s", slot,
						target.name(), ex.getMessage(), next.delay().toSeconds());
			}
			return false;
		}
	}

	// A retry that fails as the attempt before it did is not audited again: a slot refused at every poll would push
	// operators' entries out of the journal.
	private RecreateResult audited(Target target, String slot, Map<String, Object> parameters, HealRetry retry,
			Supplier<RecreateResult> recreate) {
		RecreateResult result;
		try {
			result = recreate.get();
		}
		catch (RuntimeException ex) {
			if (retry == null || !retry.detail().equals(String.valueOf(ex.getMessage()))) {
				this.auditor.recordFailure(Auditor.SELF, "slot.heal", target.name(), slot, parameters, ex);
			}
			throw ex;
		}
		this.auditor.recordOutcome(Auditor.SELF, "slot.heal", target.name(), slot, parameters, SlotAudit.recreated(result));
		return result;
	}

}
