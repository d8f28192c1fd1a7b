package io.slotkeeper.target;

import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import io.slotkeeper.config.SlotKeeperProperties;

/**
 * Wires connections to the targets.
 */
@Configuration(proxyBeanMethods = false)
class TargetConfiguration {

	@Bean
	TargetConnector targetConnector() {
		return new TargetConnector();
	}

	@Bean
	Targets targets(SlotKeeperProperties properties) {
		return new Targets(properties.targets());
	}

	@Bean
	TargetDataSources targetDataSources(TargetConnector connector) {
		return new TargetDataSources(connector);
	}

}
