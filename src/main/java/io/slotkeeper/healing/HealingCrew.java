package io.slotkeeper.healing;

import java.time.Clock;

import io.slotkeeper.audit.Auditor;
import io.slotkeeper.outage.KeepSizeGuard;
import io.slotkeeper.slot.changing.SlotService;

/**
 * What each target's poll duties act through: the healer of lost and missing slots, the
 * connectors' duties, the WAL-limit guard and the auditor of what they do. One crew for
 * the instance, its parts beans of {@link HealingConfiguration}.
 *
 * @param healer recreates lost and missing slots, drops orphans
 * @param connectors hands connectors over, aligns stale offsets, rechecks re-snapshots
 * @param keepSize raises and puts back the server's WAL limit ({@code on-outage})
 * @param auditor audits as {@code slot-keeper}
 */
record HealingCrew(SlotHealer healer, ConnectorDuties connectors, KeepSizeGuard keepSize, Auditor auditor) {

	/**
	 * A crew built outside a Spring context (a poller a test runs by hand), as
	 * {@link HealingConfiguration} builds it.
	 * @param slots the runbook a heal goes through
	 * @param auditor where heals, handovers and restarts are audited
	 * @param clock the clock
	 * @param ledger where heal attempts are counted
	 * @return the crew
	 */
	static HealingCrew of(SlotService slots, Auditor auditor, Clock clock, HealLedger ledger) {
		HealBudget budget = new HealBudget(ledger, auditor);
		return new HealingCrew(
				new SlotHealer(slots, budget, new HealAttempts(budget, auditor, clock),
						new OrphanDrops(slots, auditor)),
				new ConnectorDuties(slots, auditor), new KeepSizeGuard(auditor, clock), auditor);
	}

}
