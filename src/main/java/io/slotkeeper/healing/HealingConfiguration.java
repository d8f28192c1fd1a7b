package io.slotkeeper.healing;

import java.time.Clock;

import io.micrometer.core.instrument.MeterRegistry;

import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import io.slotkeeper.audit.Auditor;
import io.slotkeeper.gap.GapJournals;
import io.slotkeeper.outage.KeepSizeGuard;
import io.slotkeeper.slot.changing.SlotService;

/**
 * Wires what follows each poll and what healing says of a target.
 */
@Configuration(proxyBeanMethods = false)
class HealingConfiguration {

	@Bean
	HealBudget healBudget(Auditor auditor) {
		return new HealBudget(HealLedger.inTargets(), auditor);
	}

	@Bean
	HealAttempts healAttempts(HealBudget budget, Auditor auditor, Clock clock) {
		return new HealAttempts(budget, auditor, clock);
	}

	@Bean
	OrphanDrops orphanDrops(SlotService slots, Auditor auditor) {
		return new OrphanDrops(slots, auditor);
	}

	@Bean
	SlotHealer slotHealer(SlotService slots, HealBudget budget, HealAttempts attempts, OrphanDrops orphans) {
		return new SlotHealer(slots, budget, attempts, orphans);
	}

	@Bean
	ConnectorDuties connectorDuties(SlotService slots, Auditor auditor) {
		return new ConnectorDuties(slots, auditor);
	}

	@Bean
	KeepSizeGuard keepSizeGuard(Auditor auditor, Clock clock) {
		return new KeepSizeGuard(auditor, clock);
	}

	@Bean
	Healing healing(SlotHealer healer, ConnectorDuties connectors, KeepSizeGuard keepSize, Auditor auditor,
			GapJournals journals, MeterRegistry registry, Clock clock) {
		return new Healing(new HealingCrew(healer, connectors, keepSize, auditor), journals, registry, clock);
	}

	@Bean
	HealingReadOuts healingReadOuts(HealBudget budget, KeepSizeGuard keepSize, GapJournals journals,
			SlotService slots) {
		return new HealingReadOuts(budget, keepSize, journals, slots.followUps().resnapshots());
	}

}
