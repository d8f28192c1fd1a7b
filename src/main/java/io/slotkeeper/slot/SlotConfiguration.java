package io.slotkeeper.slot;

import java.time.Clock;
import java.time.Duration;

import io.micrometer.core.instrument.MeterRegistry;

import org.springframework.boot.health.contributor.HealthContributor;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.web.client.RestClient;

import io.slotkeeper.audit.Auditor;
import io.slotkeeper.connect.ConnectorClient;
import io.slotkeeper.heartbeat.Heartbeats;
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
	SlotInsights slotInsights(Heartbeats heartbeats) {
		return new SlotInsights((target) -> heartbeats.get(target).recentBeats());
	}

	@Bean
	SlotService slotService(Targets targets, TargetDataSources dataSources, ConnectorClient connectors,
			MeterRegistry registry) {
		return new SlotService(targets, dataSources, connectors, registry);
	}

	@Bean
	SlotReader slotReader(Targets targets, TargetDataSources dataSources, ConnectorClient connectors,
			SlotInsights insights) {
		return new SlotReader(targets, dataSources, connectors, insights);
	}

	@Bean
	SlotPoller slotPoller(Targets targets, SlotService slots, SlotReader reader, SlotInsights insights,
			Auditor auditor, Heartbeats heartbeats, MeterRegistry registry) {
		Clock clock = Clock.systemUTC();
		SlotHealer healer = new SlotHealer(slots, auditor, (target) -> heartbeats.get(target).owner(), clock);
		return new SlotPoller(targets.all(), reader, healer, insights, registry, clock);
	}

	@Bean
	HealthContributor slotsHealthContributor(Targets targets, SlotPoller poller) {
		return SlotHealth.of(targets.all(), poller);
	}

}
