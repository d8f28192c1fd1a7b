package io.slotkeeper.heartbeat;

import java.time.Clock;

import io.micrometer.core.instrument.MeterRegistry;

import org.springframework.boot.health.contributor.HealthContributor;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import io.slotkeeper.fleet.Fleet;
import io.slotkeeper.lanes.LaneWatch;
import io.slotkeeper.sessions.NodeConnector;

/**
 * Wires the heartbeat engine onto the fleet.
 */
@Configuration(proxyBeanMethods = false)
class HeartbeatConfiguration {

	@Bean
	Heartbeats heartbeats(Fleet fleet, NodeConnector connector, MeterRegistry registry, Clock clock) {
		return new Heartbeats(fleet, connector, registry, clock);
	}

	@Bean
	HeartbeatScheduler heartbeatScheduler(Heartbeats heartbeats, Fleet fleet, LaneWatch lanes) {
		return new HeartbeatScheduler(heartbeats, fleet, heartbeats.longestAttempt(), lanes);
	}

	@Bean
	HealthContributor heartbeatHealthContributor(Fleet fleet, Heartbeats heartbeats) {
		return HeartbeatHealth.of(fleet, heartbeats);
	}

}
