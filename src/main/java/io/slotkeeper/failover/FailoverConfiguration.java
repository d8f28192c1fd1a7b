package io.slotkeeper.failover;

import io.micrometer.core.instrument.MeterRegistry;

import org.springframework.context.ApplicationEventPublisher;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import io.slotkeeper.audit.Auditor;
import io.slotkeeper.fleet.Fleet;

/**
 * Wires the failover notice.
 */
@Configuration(proxyBeanMethods = false)
class FailoverConfiguration {

	@Bean
	FailoverWatch failoverWatch(Fleet fleet, Auditor auditor, ApplicationEventPublisher events,
			MeterRegistry registry) {
		return new FailoverWatch(fleet, auditor, events, registry);
	}

}
