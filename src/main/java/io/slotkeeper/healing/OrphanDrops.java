package io.slotkeeper.healing;

import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.slotkeeper.audit.Auditor;
import io.slotkeeper.config.OnOrphan;
import io.slotkeeper.failover.FailoverChecks;
import io.slotkeeper.fleet.Target;
import io.slotkeeper.slot.changing.SlotService;

/**
 * Drops the orphans whose slot's policy says {@code on-orphan: drop}, on the instance
 * that owns the target, through the same path as the API: the change lock, never an
 * active slot, and {@code If-Match} with the tag the check saw, so that a synchronized
 * copy that has replaced the orphan meanwhile is left alone. Audited as
 * {@code slot.heal}; a drop that fails as the one before it did is not audited again.
 */
final class OrphanDrops {

	private static final Logger logger = LoggerFactory.getLogger(OrphanDrops.class);

	private final SlotService slots;

	private final Auditor auditor;

	private final Map<String, String> failures = new ConcurrentHashMap<>();

	OrphanDrops(SlotService slots, Auditor auditor) {
		this.slots = slots;
		this.auditor = auditor;
	}

	boolean drop(Target target, List<FailoverChecks.Orphan> orphans) {
		boolean dropped = false;
		for (FailoverChecks.Orphan orphan : orphans) {
			boolean policy = target.slots()
				.policy(orphan.slot())
				.filter((slot) -> slot.onOrphan() == OnOrphan.DROP)
				.isPresent();
			if (policy && target.ownership().owned()) {
				dropped |= dropOne(target, orphan);
			}
		}
		return dropped;
	}

	private boolean dropOne(Target target, FailoverChecks.Orphan orphan) {
		String key = target.name() + "/" + orphan.node() + "/" + orphan.slot();
		Map<String, Object> parameters = Auditor.parameters("onOrphan", "drop", "node", orphan.node(), "ifMatch",
				orphan.etag());
		try {
			this.slots.drop(target, orphan.node(), orphan.slot(), false, orphan.etag());
		}
		catch (RuntimeException ex) {
			String detail = String.valueOf(ex.getMessage());
			if (!Objects.equals(this.failures.put(key, detail), detail)) {
				this.auditor.recordFailure(Auditor.SELF, "slot.heal", target.name(), orphan.slot(), parameters, ex);
				logger.warn("Dropping the orphan '{}' on replica '{}' of target '{}' failed: {}", orphan.slot(),
						orphan.node(), target.name(), detail);
			}
			return false;
		}
		this.failures.remove(key);
		this.auditor
			.recordOutcome(Auditor.SELF, "slot.heal", target.name(), orphan.slot(), parameters,
					new Auditor.Summary("done", 204,
							"dropped the orphan on " + orphan.node()
									+ " that blocked the synchronization of the primary's failover slot",
							Map.of(), null));
		logger.warn(
				"Dropped slot '{}' on replica '{}' of target '{}': it was an orphan that blocked the"
						+ " synchronization of the primary's failover slot of that name",
				orphan.slot(), orphan.node(), target.name());
		return true;
	}

}
