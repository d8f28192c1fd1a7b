package io.slotkeeper.connect;

import java.time.Duration;

import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.web.client.RestClient;

/**
 * Wires the Kafka Connect client and the log of connector handovers.
 */
@Configuration(proxyBeanMethods = false)
class ConnectConfiguration {

	@Bean
	ConnectorClient connectorClient() {
		return new ConnectorClient(RestClient.builder(), Duration.ofMillis(500));
	}

	@Bean
	HandoverLog handoverLog() {
		return new HandoverLog();
	}

}
