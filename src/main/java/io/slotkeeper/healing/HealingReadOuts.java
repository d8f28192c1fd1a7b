package io.slotkeeper.healing;

import java.util.Map;
import java.util.Optional;

import io.slotkeeper.gap.GapJournals;
import io.slotkeeper.settings.RaisedLimit;
import io.slotkeeper.watching.SlotHealthReadOuts;

/**
 * What healing says of a target in its {@code slots} health and on the page, read off the
 * healer this instance heals with.
 */
final class HealingReadOuts implements SlotHealthReadOuts {

	private final SlotHealer healer;

	private final GapJournals journals;

	HealingReadOuts(SlotHealer healer, GapJournals journals) {
		this.healer = healer;
		this.journals = journals;
	}

	@Override
	public Map<String, String> healingStopped(String target) {
		return this.healer.stopped(target);
	}

	@Override
	public String healingBudgetInMemoryBecause(String target) {
		return this.healer.budgetInMemoryBecause(target);
	}

	@Override
	public Optional<RaisedLimit> raisedLimit(String target) {
		return this.healer.keepSize().raisedLimit(target);
	}

	@Override
	public Map<String, String> gapJournals(String target) {
		return this.journals.describe(target);
	}

}
