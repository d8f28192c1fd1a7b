package io.slotkeeper.slot;

import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import io.slotkeeper.connect.ConnectorClient;
import io.slotkeeper.slot.watching.ConnectorStates;
import io.slotkeeper.slot.watching.SlotInsights;

/**
 * Wires the slot API's reads.
 */
@Configuration(proxyBeanMethods = false)
class SlotConfiguration {

	@Bean
	SlotReader slotReader(ConnectorClient connectors, SlotInsights insights, ConnectorStates states) {
		return new SlotReader(connectors, insights, states);
	}

}
