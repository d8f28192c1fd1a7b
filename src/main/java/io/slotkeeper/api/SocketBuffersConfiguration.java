package io.slotkeeper.api;

import org.springframework.boot.tomcat.ConfigurableTomcatWebServerFactory;
import org.springframework.boot.web.server.WebServerFactoryCustomizer;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * Tomcat's socket write buffer, sized for the slot listing. Tomcat hands a response body
 * to the socket one buffer at a time: with its default of 8 KiB, the listing of 100 slots
 * (about 100 KB of JSON) took thirteen writes, and writing was most of what the listing
 * cost beyond the framework's floor (bench/results/RESULTS.md, section 4). Every open
 * connection holds one such buffer, so the number of connections is bounded as well
 * ({@code server.tomcat.max-connections} in application.yaml), which bounds the memory
 * all of them can take.
 */
@Configuration(proxyBeanMethods = false)
class SocketBuffersConfiguration {

	/**
	 * Bytes of a response written to the socket at once.
	 */
	static final int WRITE_BUFFER_BYTES = 64 * 1024;

	@Bean
	WebServerFactoryCustomizer<ConfigurableTomcatWebServerFactory> socketWriteBuffer() {
		return (factory) -> factory.addConnectorCustomizers((connector) -> {
			if (!connector.setProperty("socket.appWriteBufSize", String.valueOf(WRITE_BUFFER_BYTES))) {
				throw new IllegalStateException("Tomcat's connector has no socket.appWriteBufSize to set");
			}
		});
	}

}
