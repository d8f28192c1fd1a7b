package io.slotkeeper.slot;

import java.time.Clock;
import java.time.Duration;

import io.micrometer.core.instrument.MeterRegistry;

import org.springframework.boot.health.contributor.HealthContributor;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.web.client.RestClient;

import io.slotkeeper.connect.ConnectorClient;
import io.slotkeeper.target.TargetDataSources;
import io.slotkeeper.target.Targets;

/**
 * Wires the slot runbook.
 */
@Configuration(proxyBeanMethods = false)
class SlotConfiguration {

	@Bean
	ConnectorClient connectorClient() {
		return new ConnectorClient(RestClient.builder(), Duration.ofMillis(500));
	}

	@Bean
	SlotService slotService(Targets targets, TargetDataSources dataSources, ConnectorClient connectors,
			MeterRegistry registry) {
		return new SlotService(targets, dataSources, connectors, registry);
	}

	@Bean
	SlotPoller slotPoller(Targets targets, SlotService slots, MeterRegistry registry) {
		return new SlotPoller(targets.all(), slots, registry, Clock.systemUTC());
	}

	@Bean
	HealthContributor slotsHealthContributor(Targets targets, SlotPoller poller) {
		return SlotHealth.of(targets.all(), poller);
	}

}
