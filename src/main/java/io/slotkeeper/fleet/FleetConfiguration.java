package io.slotkeeper.fleet;

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
	Fleet fleet(SlotKeeperProperties properties, NodeConnector connector) {
		return new Fleet(properties.targets(), connector, Instance.of(properties.instanceId()));
	}

}
