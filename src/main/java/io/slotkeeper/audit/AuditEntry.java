package io.slotkeeper.audit;

import java.time.Instant;
import java.util.List;
import java.util.Map;

/**
 * One change asked through the API, done, dry-run, refused or failed.
 *
 * @param at when it ended
 * @param actor who asked: the static token's name, the cluster user's name, or
 * {@code slot-keeper} itself
 * @param actorGroups the cluster user's groups; empty for a static token and for
 * slot-keeper
 * @param action what was asked, for example {@code slot.recreate}
 * @param target the target
 * @param slot the slot, {@code null} when none
 * @param parameters the call's parameters (force, dryRun, plugin…)
 * @param outcome {@code done}, {@code dry-run}, {@code refused} or {@code failed}
 * @param status the HTTP status answered
 * @param detail why it was refused or failed, {@code null} when done
 * @param lsns LSNs involved: the old slot's confirmed flush, the new slot's consistent
 * point…
 * @param connector what the connector restart came to, {@code null} when none was made
 */
public record AuditEntry(Instant at, String actor, List<String> actorGroups, String action, String target, String slot,
		Map<String, Object> parameters, String outcome, int status, String detail, Map<String, String> lsns,
		String connector) {

}
