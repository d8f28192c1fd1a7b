package io.slotkeeper.api;

import org.apache.catalina.connector.Connector;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.tomcat.TomcatWebServer;
import org.springframework.boot.web.server.context.WebServerApplicationContext;

import io.slotkeeper.ApplicationTestSupport;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The API's Tomcat writes a response in pieces of 64 KiB, not 8 KiB, and holds at most
 * 512 connections, so that the larger buffers stay bounded in memory.
 */
class SocketBuffersTests extends ApplicationTestSupport {

	@Autowired
	private WebServerApplicationContext context;

	@Test
	void theApiWritesInPiecesOf64KibAndBoundsItsConnections() {
		Connector connector = ((TomcatWebServer) this.context.getWebServer()).getTomcat().getConnector();
		assertThat(String.valueOf(connector.getProperty("socket.appWriteBufSize")))
			.isEqualTo(String.valueOf(SocketBuffersConfiguration.WRITE_BUFFER_BYTES))
			.isEqualTo("65536");
		assertThat(String.valueOf(connector.getProperty("maxConnections"))).isEqualTo("512");
	}

}
