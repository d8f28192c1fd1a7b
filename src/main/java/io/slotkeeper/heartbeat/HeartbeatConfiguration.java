package io.slotkeeper.heartbeat;

import java.time.Clock;

import io.micrometer.core.instrument.MeterRegistry;

import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.boot.health.contributor.HealthContributor;

import io.slotkeeper.config.SlotKeeperProperties;
import io.slotkeeper.target.TargetConnector;

/**
 * Wires the heartbeat engine from the configured targets.
 */
@Configuration(proxyBeanMethods = false)
class HeartbeatConfiguration {

	@Bean
	Heartbeats heartbeats(SlotKeeperProperties properties, TargetConnector connector, MeterRegistry registry) {
		Clock clock = Clock.systemUTC();
		return new Heartbeats(properties.targets()
			.stream()
			.map((target) -> new TargetHeartbeat(target, connector, registry, clock))
			.toList());
	}

	@Bean
	HeartbeatScheduler heartbeatScheduler(Heartbeats heartbeats) {
		return new HeartbeatScheduler(heartbeats.all().stream().toList(), heartbeats.longestAttempt());
	}

	@Bean
	HealthContributor heartbeatHealthContributor(Heartbeats heartbeats) {
		return HeartbeatHealth.of(heartbeats);
	}

}
