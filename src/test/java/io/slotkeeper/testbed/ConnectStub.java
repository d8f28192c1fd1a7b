package io.slotkeeper.testbed;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import tools.jackson.databind.json.JsonMapper;

import io.slotkeeper.config.ConnectorProperties;

/**
 * A local stand-in for Kafka Connect's REST API that records every request and answers
 * from scripts: each restart takes the next scripted answer and each status read the next
 * scripted status answer, then the default (202 for a restart, a RUNNING status for a
 * status). It keeps one connector's lifecycle as Kafka Connect 3.6+ does (KIP-875):
 * {@code PUT …/stop} and {@code …/resume}, {@code GET …/offsets}, {@code PATCH} and
 * {@code DELETE …/offsets} only while stopped (400 otherwise), {@code GET …/config};
 * {@link #withoutOffsetsApi()} plays an older Connect (404).
 */
public final class ConnectStub implements AutoCloseable {

	/**
	 * A connector reached through Kafka Connect's REST API, named {@code orders-cdc}, as
	 * its properties bind.
	 * @param url the worker's URL
	 * @param keyValues more of its properties, a key then its value
	 * @return the connector
	 */
	public static ConnectorProperties connector(String url, String... keyValues) {
		String[] all = new String[keyValues.length + 4];
		all[0] = "url";
		all[1] = url;
		all[2] = "name";
		all[3] = "orders-cdc";
		System.arraycopy(keyValues, 0, all, 4, keyValues.length);
		return TestTargets.bind(ConnectorProperties.class, all);
	}

	private final HttpServer server;

	private final List<Request> requests = new ArrayList<>();

	private final Deque<Answer> script = new ArrayDeque<>();

	private final Deque<Answer> statusScript = new ArrayDeque<>();

	private static final JsonMapper JSON = JsonMapper.builder().build();

	private volatile boolean offsetsApi = true;

	private volatile String plugins = "[{\"class\":\"io.debezium.connector.postgresql.PostgresConnector\","
			+ "\"type\":\"source\",\"version\":\"3.6.1.Final\"}]";

	private volatile boolean stopped;

	private volatile String offsets = "[]";

	private static final String CONFIG = "{\"connector.class\":\"io.debezium.connector.postgresql.PostgresConnector\","
			+ "\"topic.prefix\":\"stub\"}";

	private volatile String config = CONFIG;

	private static final String RUNNING = "{\"name\":\"x\",\"connector\":{\"state\":\"RUNNING\",\"worker_id\":\"w:8083\"},"
			+ "\"tasks\":[{\"id\":0,\"state\":\"RUNNING\",\"worker_id\":\"w:8083\"}]}";

	private volatile String status = RUNNING;

	/**
	 * Starts the stub on a free loopback port.
	 */
	/**
	 * Lists slot-keeper's Debezium extension among the worker's plugins, as a worker with
	 * its jar does.
	 */
	public void withExtension() {
		this.plugins = "[{\"class\":\"io.slotkeeper.debezium.Installed\",\"type\":\"predicate\","
				+ "\"version\":\"0.1.0\"}]";
	}

	public ConnectStub() {
		this.server = LocalHttp.start(this::handle);
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
	 * Plays a Kafka Connect before 3.6: stop, resume and offsets answer 404.
	 */
	public void withoutOffsetsApi() {
		this.offsetsApi = false;
	}

	/**
	 * Sets the connector's stored offsets.
	 * @param json the {@code offsets} array, for example
	 * {@code [{"partition":{…},"offset":{…}}]}
	 */
	public void offsets(String json) {
		this.offsets = json;
	}

	/**
	 * The connector's stored offsets.
	 * @return the {@code offsets} array as JSON
	 */
	public String offsets() {
		return this.offsets;
	}

	/**
	 * Sets what {@code GET /connectors/{name}/config} answers.
	 * @param json the configuration
	 */
	public void config(String json) {
		this.config = json;
	}

	/**
	 * Whether the connector is stopped.
	 * @return whether a stop came last
	 */
	public boolean stopped() {
		return this.stopped;
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
	 * Forgets requests, scripts, offsets, status and configuration.
	 */
	public synchronized void reset() {
		this.requests.clear();
		this.script.clear();
		this.statusScript.clear();
		this.offsetsApi = true;
		this.stopped = false;
		this.offsets = "[]";
		this.status = RUNNING;
		this.config = CONFIG;
	}

	/**
	 * Runs something whenever the connector is asked to stop, before the stop is
	 * answered: what another actor does while slot-keeper waits on Kafka Connect.
	 * @param action what to run
	 */
	public void onStop(Runnable action) {
		this.onStop = action;
	}

	private volatile Runnable onStop = () -> {
	};

	private volatile boolean starting;

	/**
	 * Plays a worker starting again (its pod killed and back): every request from the
	 * next on is answered with Jetty's own 404 page, as before Connect's resources are
	 * up.
	 * @param on whether it is starting
	 */
	public void starting(boolean on) {
		this.starting = on;
	}

	private void handle(HttpExchange exchange) throws IOException {
		String method = exchange.getRequestMethod();
		String path = exchange.getRequestURI().getPath();
		boolean startingAgain = this.starting;
		if ("PUT".equals(method) && path.endsWith("/stop")) {
			this.onStop.run();
		}
		String body = new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
		Answer answer;
		synchronized (this) {
			this.requests.add(new Request(method, path, exchange.getRequestURI().getRawQuery(),
					exchange.getRequestHeaders().getFirst("Authorization"), body));
			answer = startingAgain ? new Answer(404, "<html><body><h2>HTTP ERROR 404 Not Found</h2></body></html>")
					: answer(method, path, body);
		}
		LocalHttp.answer(exchange, answer.status(), answer.body());
	}

	private Answer answer(String method, String path, String body) {
		String resource = path.substring(path.lastIndexOf('/') + 1);
		boolean lifecycle = resource.equals("stop") || resource.equals("resume") || resource.equals("offsets");
		if (lifecycle && !this.offsetsApi) {
			return new Answer(404, "{\"error_code\":404,\"message\":\"HTTP 404 Not Found\"}");
		}
		return switch (method + " " + resource) {
			case "GET status" -> next(this.statusScript, new Answer(200, this.stopped
					? "{\"name\":\"x\",\"connector\":{\"state\":\"STOPPED\"},\"tasks\":[]}" : this.status));
			case "GET config" -> new Answer(200, this.config);
			case "GET connector-plugins" -> new Answer(200, this.plugins);
			case "GET offsets" -> new Answer(200, "{\"offsets\":" + this.offsets + "}");
			case "PUT stop" -> stateChange(true);
			case "PUT resume" -> stateChange(false);
			case "PATCH offsets", "DELETE offsets" -> changeOffsets(method, body);
			default -> next(this.script,
					new Answer(202, "{\"name\":\"x\",\"connector\":{\"state\":\"RESTARTING\"},\"tasks\":[]}"));
		};
	}

	private Answer stateChange(boolean stop) {
		this.stopped = stop;
		return new Answer(202, "");
	}

	private Answer changeOffsets(String method, String body) {
		if (!this.stopped) {
			return new Answer(400, "{\"error_code\":400,\"message\":\"Connectors must be in the STOPPED state\"}");
		}
		this.offsets = method.equals("DELETE") ? "[]" : JSON.readTree(body).get("offsets").toString();
		return new Answer(200, "{\"message\":\"The offsets for this connector have been altered successfully\"}");
	}

	private static Answer next(Deque<Answer> script, Answer otherwise) {
		Answer scripted = script.poll();
		return (scripted != null) ? scripted : otherwise;
	}

	@Override
	public void close() {
		this.server.stop(0);
	}

	/**
	 * A request the stub received.
	 *
	 * @param method the HTTP method
	 * @param path the path
	 * @param query the raw query, or {@code null}
	 * @param authorization the Authorization header, or {@code null}
	 * @param body the request's body, empty when none
	 */
	public record Request(String method, String path, String query, String authorization, String body) {
	}

	/**
	 * A scripted answer.
	 *
	 * @param status the HTTP status
	 * @param body the JSON body
	 */
	public record Answer(int status, String body) {
	}

}
