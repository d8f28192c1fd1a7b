package io.slotkeeper.watching;

import java.time.Clock;

import io.micrometer.core.instrument.MeterRegistry;

import org.springframework.boot.health.contributor.HealthContributor;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import io.slotkeeper.connect.ConnectorClient;
import io.slotkeeper.failover.FailoverHealth;
import io.slotkeeper.fleet.Fleet;
import io.slotkeeper.handover.HandoverLog;
import io.slotkeeper.lanes.LaneWatch;
import io.slotkeeper.settings.SettingsAudit;

/**
 * Wires the watch over every target's slots: polling, insights, gauges and the
 * {@code slots} health; what follows each poll is the {@link PollDuties} bean's.
 */
@Configuration(proxyBeanMethods = false)
class WatchingConfiguration {

	@Bean
	SlotWatch slotWatch(ConnectorClient connectors, HandoverLog handovers, Clock clock) {
		return new SlotWatch(connectors, handovers, clock);
	}

	@Bean
	SettingsAudit settingsAudit(SlotWatch watch) {
		return watch.settings();
	}

	@Bean
	SlotPoller slotPoller(Fleet fleet, PollDuties followers, SlotWatch watch, LaneWatch lanes, MeterRegistry registry,
			Clock clock) {
		return new SlotPoller(fleet, followers, watch, lanes, registry, clock);
	}

	@Bean
	HealthContributor failoverHealthContributor(Fleet fleet, SlotWatch watch) {
		return FailoverHealth.of(fleet.all(), watch.failover());
	}

	@Bean
	HealthContributor slotsHealthContributor(Fleet fleet, SlotPoller poller, SlotWatch watch,
			SlotHealthReadOuts readOuts, Clock clock) {
		return SlotHealth.of(fleet, poller, watch.connectors(), readOuts, clock);
	}

}
