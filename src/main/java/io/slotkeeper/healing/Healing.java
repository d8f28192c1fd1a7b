package io.slotkeeper.healing;

import java.time.Clock;
import java.util.List;
import java.util.function.Supplier;

import io.micrometer.core.instrument.MeterRegistry;

import io.slotkeeper.audit.Auditor;
import io.slotkeeper.fleet.Target;
import io.slotkeeper.gap.GapJournals;
import io.slotkeeper.slot.changing.SlotService;
import io.slotkeeper.watching.PollDuties;
import io.slotkeeper.watching.SlotWatch;

/**
 * What follows each poll, as the poller asks for it: per target, its
 * {@link TargetPollDuties} (healing through the {@link SlotHealer}, the connectors'
 * handovers and restarts, the WAL-limit guard, the failover checks).
 */
public final class Healing implements PollDuties {

	private final HealingCrew crew;

	private final MeterRegistry registry;

	private final Clock clock;

	private final GapJournals journals;

	/**
	 * Creates what follows the polls of this instance.
	 * @param slots the runbook a heal goes through
	 * @param auditor where heals, handovers and restarts are audited
	 * @param registry where they are counted
	 * @param clock the clock
	 */
	public Healing(SlotService slots, Auditor auditor, MeterRegistry registry, Clock clock) {
		this(HealingCrew.of(slots, auditor, clock, HealLedger.inTargets()), slots.journals(), registry, clock);
	}

	Healing(HealingCrew crew, GapJournals journals, MeterRegistry registry, Clock clock) {
		this.crew = crew;
		this.journals = journals;
		this.registry = registry;
		this.clock = clock;
	}

	@Override
	public TargetDuties of(Target target, Supplier<List<Target>> fleet, SlotWatch watch) {
		return new TargetPollDuties(target, fleet, this.crew, watch, this.journals, this.registry, this.clock);
	}

}
