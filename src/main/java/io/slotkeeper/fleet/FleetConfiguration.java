package io.slotkeeper.fleet;

import io.micrometer.core.instrument.MeterRegistry;

import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import io.slotkeeper.config.SlotKeeperProperties;

/**
 * Wires the fleet of targets from configuration.
 */
@Configuration(proxyBeanMethods = false)
class FleetConfiguration {

	@Bean
	NodeConnector nodeConnector() {
		return new NodeConnector();
	}

	@Bean
	Fleet fleet(SlotKeeperProperties properties, NodeConnector connector, MeterRegistry registry) {
		Fleet fleet = new Fleet(properties.targets(), properties.servers(), connector,
				Instance.of(properties.instanceId()));
		fleet.watch(new TargetMeters(registry));
		return fleet;
	}

}
