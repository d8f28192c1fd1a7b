package io.slotkeeper.slot.changing;

import java.time.Clock;

import io.micrometer.core.instrument.MeterRegistry;

import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import io.slotkeeper.connect.ConnectorClient;
import io.slotkeeper.gap.GapJournals;
import io.slotkeeper.handover.HandoverLog;

/**
 * Wires the slot runbook.
 */
@Configuration(proxyBeanMethods = false)
class ChangingConfiguration {

	@Bean
	SlotService slotService(ConnectorClient connectors, HandoverLog handovers, MeterRegistry registry,
			GapJournals journals, Clock clock) {
		return new SlotService(connectors, handovers, registry, journals, clock);
	}

}
