package io.slotkeeper.sessions;

import java.time.Clock;

import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * Wires the one connector every node's sessions are opened through.
 */
@Configuration(proxyBeanMethods = false)
class SessionsConfiguration {

	@Bean
	NodeConnector nodeConnector(Clock clock) {
		return new NodeConnector(clock);
	}

}
