package io.slotkeeper.healing;

import java.time.Clock;

import io.micrometer.core.instrument.MeterRegistry;

import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import io.slotkeeper.audit.Auditor;
import io.slotkeeper.slot.changing.SlotService;

/**
 * Wires what follows each poll.
 */
@Configuration(proxyBeanMethods = false)
class HealingConfiguration {

	@Bean
	Healing healing(SlotService slots, Auditor auditor, MeterRegistry registry) {
		return new Healing(slots, auditor, registry, Clock.systemUTC());
	}

}
