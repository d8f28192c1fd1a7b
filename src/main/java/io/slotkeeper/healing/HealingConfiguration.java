package io.slotkeeper.healing;

import java.time.Clock;

import io.micrometer.core.instrument.MeterRegistry;

import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import io.slotkeeper.audit.Auditor;
import io.slotkeeper.gap.GapJournals;
import io.slotkeeper.slot.changing.SlotService;

/**
 * Wires what follows each poll and what healing says of a target.
 */
@Configuration(proxyBeanMethods = false)
class HealingConfiguration {

	@Bean
	SlotHealer slotHealer(SlotService slots, Auditor auditor, Clock clock) {
		return new SlotHealer(slots, auditor, clock);
	}

	@Bean
	Healing healing(SlotHealer healer, GapJournals journals, MeterRegistry registry, Clock clock) {
		return new Healing(healer, journals, registry, clock);
	}

	@Bean
	HealingReadOuts healingReadOuts(SlotHealer healer, GapJournals journals) {
		return new HealingReadOuts(healer, journals);
	}

}
