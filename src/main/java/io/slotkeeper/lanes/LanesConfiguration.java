package io.slotkeeper.lanes;

import java.time.Clock;

import io.micrometer.core.instrument.MeterRegistry;

import org.springframework.boot.health.contributor.HealthContributor;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * Wires the watch over every lane's rounds and its {@code lanes} health.
 */
@Configuration(proxyBeanMethods = false)
class LanesConfiguration {

	@Bean
	LaneWatch laneWatch(MeterRegistry registry, Clock clock) {
		return new LaneWatch(registry, clock);
	}

	@Bean
	HealthContributor lanesHealthContributor(LaneWatch lanes) {
		return LaneHealth.of(lanes);
	}

}
