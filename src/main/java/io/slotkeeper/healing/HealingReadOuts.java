package io.slotkeeper.healing;

import java.util.Map;
import java.util.Optional;

import io.slotkeeper.gap.GapJournals;
import io.slotkeeper.outage.KeepSizeGuard;
import io.slotkeeper.resnapshot.Resnapshots;
import io.slotkeeper.settings.RaisedLimit;
import io.slotkeeper.watching.SlotHealthReadOuts;

/**
 * What healing says of a target in its {@code slots} health and on the page, read off the
 * heal budget and the WAL-limit guard this instance heals with.
 */
final class HealingReadOuts implements SlotHealthReadOuts {

	private final HealBudget budget;

	private final KeepSizeGuard keepSize;

	private final GapJournals journals;

	private final Resnapshots resnapshots;

	HealingReadOuts(HealBudget budget, KeepSizeGuard keepSize, GapJournals journals, Resnapshots resnapshots) {
		this.budget = budget;
		this.keepSize = keepSize;
		this.journals = journals;
		this.resnapshots = resnapshots;
	}

	@Override
	public Map<String, String> healingStopped(String target) {
		return this.budget.stopped(target);
	}

	@Override
	public String healingBudgetInMemoryBecause(String target) {
		return this.budget.inMemoryBecause(target);
	}

	@Override
	public Optional<RaisedLimit> raisedLimit(String target) {
		return this.keepSize.raisedLimit(target);
	}

	@Override
	public Map<String, String> gapJournals(String target) {
		return this.journals.describe(target);
	}

	@Override
	public Map<String, String> gapDeliveries(String target) {
		return this.resnapshots.deliveries(target);
	}

}
