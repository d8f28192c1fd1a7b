package io.slotkeeper.slot;

import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import io.slotkeeper.connect.ConnectorClient;
import io.slotkeeper.slot.watching.SlotWatch;

/**
 * Wires the slot API's reads.
 */
@Configuration(proxyBeanMethods = false)
class SlotConfiguration {

	@Bean
	SlotReader slotReader(ConnectorClient connectors, SlotWatch watch) {
		return new SlotReader(connectors, watch);
	}

}
