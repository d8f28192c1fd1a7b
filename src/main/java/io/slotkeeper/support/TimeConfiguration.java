package io.slotkeeper.support;

import java.time.Clock;

import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * The one clock of the service: every collaborator that tells time is given this bean, so
 * that time is read in one way and a test can move it.
 */
@Configuration(proxyBeanMethods = false)
class TimeConfiguration {

	@Bean
	Clock clock() {
		return Clock.systemUTC();
	}

}
