package io.slotkeeper.testbed;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpHandler;
import com.sun.net.httpserver.HttpServer;

/**
 * The JDK's HTTP server on a free loopback port, answering JSON: what the Kafka Connect
 * stand-ins share.
 */
final class LocalHttp {

	private LocalHttp() {
	}

	static HttpServer start(HttpHandler handler) {
		return start(handler, null);
	}

	// With an executor the server answers requests at once; without one, one at a time,
	// as the Connect stand-ins do.
	static HttpServer start(HttpHandler handler, java.util.concurrent.Executor executor) {
		return start(handler, executor, 0);
	}

	static HttpServer start(HttpHandler handler, java.util.concurrent.Executor executor, int port) {
		HttpServer server;
		try {
			server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 0);
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
		server.createContext("/", handler);
		server.setExecutor(executor);
		server.start();
		return server;
	}

	static void answer(HttpExchange exchange, int status, String json) throws IOException {
		byte[] bytes = json.getBytes(StandardCharsets.UTF_8);
		exchange.getResponseHeaders().set("Content-Type", "application/json");
		exchange.sendResponseHeaders(status, (bytes.length == 0) ? -1 : bytes.length);
		if (bytes.length > 0) {
			exchange.getResponseBody().write(bytes);
		}
		exchange.close();
	}

}
