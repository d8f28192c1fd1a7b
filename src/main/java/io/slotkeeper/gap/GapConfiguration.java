package io.slotkeeper.gap;

import java.time.Clock;

import io.micrometer.core.instrument.MeterRegistry;

import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import io.slotkeeper.config.SlotKeeperProperties;

/**
 * Wires the gap journals.
 */
@Configuration(proxyBeanMethods = false)
class GapConfiguration {

	@Bean
	GapJournals gapJournals(SlotKeeperProperties properties, MeterRegistry registry, Clock clock) {
		return new GapJournals(properties.gapJournal(), registry, clock);
	}

}
