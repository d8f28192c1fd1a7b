package io.slotkeeper.api;

import org.apache.catalina.core.StandardHost;

import org.springframework.boot.tomcat.ConfigurableTomcatWebServerFactory;
import org.springframework.boot.web.server.WebServerFactoryCustomizer;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * Makes what Tomcat answers by itself a problem too: its error report valve writes
 * {@code application/problem+json} ({@link ProblemErrorReportValve}) on every port it
 * serves.
 */
@Configuration(proxyBeanMethods = false)
class ErrorPagesConfiguration {

	@Bean
	WebServerFactoryCustomizer<ConfigurableTomcatWebServerFactory> problemErrorReports() {
		return (factory) -> factory.addContextCustomizers((context) -> {
			if (context.getParent() instanceof StandardHost host) {
				host.setErrorReportValveClass(ProblemErrorReportValve.class.getName());
			}
		});
	}

}
