package io.slotkeeper.config;

import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * Configuration binding support: the strict check for unknown keys.
 */
@Configuration(proxyBeanMethods = false)
public class ConfigurationSupport {

	@Bean
	static StrictBindHandlerAdvisor strictBindHandlerAdvisor() {
		return new StrictBindHandlerAdvisor();
	}

}
