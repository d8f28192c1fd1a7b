package io.slotkeeper.connect;

import java.time.Clock;
import java.time.Duration;

import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.web.client.RestClient;

import io.slotkeeper.config.SlotKeeperProperties;

/**
 * Wires the connector client (Kafka Connect's REST API, or Strimzi's KafkaConnector
 * resources).
 */
@Configuration(proxyBeanMethods = false)
class ConnectConfiguration {

	@Bean
	ConnectorClient connectorClient(SlotKeeperProperties properties, Clock clock) {
		RestConnectorApi rest = new RestConnectorApi(RestClient.builder(), Duration.ofMillis(500), clock);
		return new ConnectorClient(rest, new StrimziConnectorApi(properties.strimzi(), rest, clock));
	}

}
