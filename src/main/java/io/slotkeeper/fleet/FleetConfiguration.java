package io.slotkeeper.fleet;

import java.time.Clock;

import io.micrometer.core.instrument.MeterRegistry;

import org.springframework.boot.health.contributor.HealthContributor;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import io.slotkeeper.config.SlotKeeperProperties;

/**
 * Wires the fleet of targets from configuration.
 */
@Configuration(proxyBeanMethods = false)
class FleetConfiguration {

	@Bean
	NodeConnector nodeConnector(Clock clock) {
		return new NodeConnector(clock);
	}

	@Bean
	LaneWatch laneWatch(MeterRegistry registry, Clock clock) {
		return new LaneWatch(registry, clock);
	}

	@Bean
	HealthContributor lanesHealthContributor(LaneWatch lanes) {
		return LaneHealth.of(lanes);
	}

	@Bean
	Fleet fleet(SlotKeeperProperties properties, NodeConnector connector, MeterRegistry registry, Clock clock) {
		Fleet fleet = new Fleet(properties.targets(), properties.servers(), connector,
				Instance.of(properties.instanceId()), clock);
		fleet.watch(new TargetMeters(registry));
		return fleet;
	}

}
