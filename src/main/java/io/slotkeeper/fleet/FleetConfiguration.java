package io.slotkeeper.fleet;

import java.time.Clock;

import io.micrometer.core.instrument.MeterRegistry;

import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import io.slotkeeper.config.SlotKeeperProperties;
import io.slotkeeper.sessions.NodeConnector;

/**
 * Wires the fleet of targets from configuration.
 */
@Configuration(proxyBeanMethods = false)
class FleetConfiguration {

	@Bean
	Fleet fleet(SlotKeeperProperties properties, NodeConnector connector, MeterRegistry registry, Clock clock) {
		Fleet fleet = new Fleet(properties.targets(), properties.servers(), connector,
				Instance.of(properties.instanceId()), clock);
		fleet.watch(new TargetMeters(registry));
		return fleet;
	}

}
