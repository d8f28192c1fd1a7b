package io.slotkeeper.slot;

import java.util.Map;
import java.util.function.Function;

import org.springframework.http.ResponseEntity;

import io.slotkeeper.audit.Auditor;
import io.slotkeeper.fleet.Fleet;
import io.slotkeeper.fleet.Target;
import io.slotkeeper.slot.changing.ChangePlan;
import io.slotkeeper.slot.changing.SlotAudit;

/**
 * What every slot change of the API shares: the dry run answered as a {@link SlotPlan},
 * audited like the change.
 */
class SlotChanges {

	static final String DRY_RUN = "answer what would be done; change nothing";

	static final String IF_MATCH = "act only if the slot still has this entity tag (from its ETag or the"
			+ " listing's etag); 412 slot-changed otherwise";

	private final Fleet fleet;

	private final Auditor auditor;

	SlotChanges(Fleet fleet, Auditor auditor) {
		this.fleet = fleet;
		this.auditor = auditor;
	}

	ResponseEntity<Object> planned(String action, String target, String slot, Map<String, Object> parameters,
			Function<Target, ChangePlan> plan) {
		return ResponseEntity.ok(SlotPlan.of(this.auditor.run(action, target, slot, parameters,
				() -> plan.apply(this.fleet.get(target)), SlotAudit::planned)));
	}

	static Map<String, Object> parameters(boolean force, boolean dryRun, String node, String ifMatch) {
		return Auditor.parameters("force", force, "dryRun", dryRun, "node", node, "ifMatch", ifMatch);
	}

}
