package io.slotkeeper.handover;

import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import io.slotkeeper.connect.ConnectorClient;

/**
 * Wires what the handover keeps for the rest of the service: the log of each connector's
 * last handover and the restarts of connectors asked through the API.
 */
@Configuration(proxyBeanMethods = false)
class HandoverConfiguration {

	@Bean
	HandoverLog handoverLog() {
		return new HandoverLog();
	}

	@Bean
	ConnectorRestarts connectorRestarts(ConnectorClient connectors) {
		return new ConnectorRestarts(connectors);
	}

}
