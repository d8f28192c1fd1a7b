package io.slotkeeper.slot;

import java.time.Clock;

import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import tools.jackson.databind.json.JsonMapper;

import io.slotkeeper.audit.Auditor;
import io.slotkeeper.connect.ConnectorClient;
import io.slotkeeper.fleet.Fleet;
import io.slotkeeper.handover.HandoverLog;
import io.slotkeeper.watching.SlotWatch;

/**
 * Wires the slot API's reads and what its changes share.
 */
@Configuration(proxyBeanMethods = false)
class SlotConfiguration {

	@Bean
	SlotReader slotReader(ConnectorClient connectors, SlotWatch watch, HandoverLog handovers, Clock clock) {
		return new SlotReader(connectors, watch, handovers, clock);
	}

	@Bean
	SlotListings slotListings(SlotReader reader, JsonMapper json) {
		return new SlotListings(reader, json);
	}

	@Bean
	SlotChanges slotChanges(Fleet fleet, Auditor auditor) {
		return new SlotChanges(fleet, auditor);
	}

}
