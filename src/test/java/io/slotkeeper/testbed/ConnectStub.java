package io.slotkeeper.testbed;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;

/**
 * A local stand-in for Kafka Connect's REST API that records every request and answers from scripts: each restart
 * takes the next scripted answer and each status read the next scripted status answer, then the default (202 for a
 * restart, a RUNNING status for a status).
 */
public final class ConnectStub implements AutoCloseable {

	private final HttpServer server;

	private final List<Request> requests = new ArrayList<>();

	private final Deque<Answer> script = new ArrayDeque<>();

	private final Deque<Answer> statusScript = new ArrayDeque<>();

	private volatile String status = "{\"name\":\"x\",\"connector\":{\"state\":\"RUNNING\",\"worker_id\":\"w:8083\"},"
			+ "\"tasks\":[{\"id\":0,\"state\":\"RUNNING\",\"worker_id\":\"w:8083\"}]}";

	/**
	 * Starts the stub on a free loopback port.
	 */
	public ConnectStub() {
		try {
			this.server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
		this.server.createContext("/", this::handle);
		this.server.start();
	}

	/**
	 * The stub's base URL.
	 * @return for example {@code http://127.0.0.1:40123}
	 */
	public String url() {
		return "http://127.0.0.1:" + this.server.getAddress().getPort();
	}

	/**
	 * Scripts the next answers to changes (restarts), in order.
	 * @param answers the answers
	 */
	public synchronized void script(Answer... answers) {
		this.script.addAll(List.of(answers));
	}

	/**
	 * Scripts the next answers to status reads, in order; slot polls read statuses too.
	 * @param answers the answers
	 */
	public synchronized void scriptStatus(Answer... answers) {
		this.statusScript.addAll(List.of(answers));
	}

	/**
	 * Sets what {@code GET /connectors/{name}/status} answers.
	 * @param json the status body
	 */
	public void status(String json) {
		this.status = json;
	}

	/**
	 * The requests received so far.
	 * @return a copy
	 */
	public synchronized List<Request> requests() {
		return new ArrayList<>(this.requests);
	}

	/**
	 * The changes (every request but a status read) received so far.
	 * @return a copy
	 */
	public synchronized List<Request> changes() {
		return this.requests.stream().filter((request) -> !request.method().equals("GET")).toList();
	}

	/**
	 * Forgets requests and scripts.
	 */
	public synchronized void reset() {
		this.requests.clear();
		this.script.clear();
		this.statusScript.clear();
	}

	private void handle(HttpExchange exchange) throws IOException {
		Answer answer;
		synchronized (this) {
			this.requests.add(new Request(exchange.getRequestMethod(), exchange.getRequestURI().getPath(),
					exchange.getRequestURI().getRawQuery(), exchange.getRequestHeaders().getFirst("Authorization")));
			answer = exchange.getRequestMethod().equals("GET") ? this.statusScript.poll() : this.script.poll();
		}
		if (answer == null) {
			answer = exchange.getRequestMethod().equals("GET") ? new Answer(200, this.status)
					: new Answer(202, "{\"name\":\"x\",\"connector\":{\"state\":\"RESTARTING\"},\"tasks\":[]}");
		}
		byte[] body = answer.body().getBytes(StandardCharsets.UTF_8);
		exchange.getResponseHeaders().set("Content-Type", "application/json");
		exchange.sendResponseHeaders(answer.status(), (body.length == 0) ? -1 : body.length);
		if (body.length > 0) {
			exchange.getResponseBody().write(body);
		}
		exchange.close();
	}

	@Override
	public void close() {
		this.server.stop(0);
	}

	/**
	 * A request the stub received.
	 * @param method the HTTP method
	 * @param path the path
	 * @param query the raw query, or {@code null}
	 * @param authorization the Authorization header, or {@code null}
	 */
	public record Request(String method, String path, String query, String authorization) {
	}

	/**
	 * A scripted answer.
	 * @param status the HTTP status
	 * @param body the JSON body
	 */
	public record Answer(int status, String body) {
	}

}
