package io.slotkeeper.testbed;

import java.io.IOException;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.atomic.AtomicLong;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.debezium.engine.ChangeEvent;
import io.debezium.engine.DebeziumEngine;
import io.debezium.engine.format.Json;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import static org.awaitility.Awaitility.await;

/**
 * Kafka Connect's REST API in front of one real, embedded Debezium PostgreSQL engine:
 * {@code status}, {@code config}, {@code restart}, and (unless
 * {@link #withoutOffsetsApi()}) {@code stop}, {@code resume} and {@code GET},
 * {@code PATCH}, {@code DELETE offsets}, which read and write the engine's own offsets
 * file as Kafka's {@code FileOffsetBackingStore} keeps it: a serialized
 * {@code HashMap<byte[], byte[]>} of JSON key {@code ["<engine>", {partition}]} to JSON
 * offset. Every row the engine delivers from {@code public.orders} is counted by its
 * {@code id}.
 */
public final class EngineConnect implements CdcConnector {

	private static final JsonMapper JSON = JsonMapper.builder().build();

	private static final String ENGINE = "orders-engine";

	private volatile HttpServer server;

	private final int port;

	private volatile boolean workerUp = true;

	private final Properties engineProperties = new Properties();

	private final Path offsetsFile;

	private final Map<Long, Integer> deliveries = new java.util.concurrent.ConcurrentHashMap<>();

	private final AtomicLong events = new AtomicLong();

	private final Map<Long, Long> arrivals = new java.util.concurrent.ConcurrentHashMap<>();

	private volatile DebeziumEngine<ChangeEvent<String, String>> engine;

	private volatile String state = "STOPPED";

	private volatile String trace;

	private volatile boolean offsetsApi = true;

	private final PostgresServer database;

	private final String slot;

	/**
	 * Starts the REST front and the engine.
	 * @param server the database server
	 * @param database the database with {@code public.orders} and the signal table
	 * {@code public.debezium_signal}
	 * @param slot the engine's slot
	 * @param offsetsDirectory where the engine keeps its offsets
	 */
	public EngineConnect(PostgresServer server, String database, String slot, Path offsetsDirectory) {
		this(server, database, slot, offsetsDirectory, Map.of());
	}

	/**
	 * Starts the REST front and the engine with settings of the connector's added or
	 * changed.
	 * @param server the database server
	 * @param database the database with {@code public.orders} and the signal table
	 * {@code public.debezium_signal}
	 * @param slot the engine's slot
	 * @param offsetsDirectory where the engine keeps its offsets
	 * @param settings the connector's further settings, such as
	 * {@code offset.mismatch.strategy}
	 */
	public EngineConnect(PostgresServer server, String database, String slot, Path offsetsDirectory,
			Map<String, String> settings) {
		this.offsetsFile = offsetsDirectory.resolve("offsets.dat");
		this.database = server;
		this.slot = slot;
		Map<String, String> config = new HashMap<>(Map.ofEntries(Map.entry("name", ENGINE),
				Map.entry("connector.class", "io.debezium.connector.postgresql.PostgresConnector"),
				Map.entry("offset.storage", "org.apache.kafka.connect.storage.FileOffsetBackingStore"),
				Map.entry("offset.storage.file.filename", this.offsetsFile.toString()),
				Map.entry("offset.flush.interval.ms", "1000"), Map.entry("database.hostname", server.host()),
				Map.entry("database.port", Integer.toString(server.port())), Map.entry("database.user", server.user()),
				Map.entry("database.password", ""), Map.entry("database.dbname", database),
				Map.entry("topic.prefix", "shop"), Map.entry("plugin.name", "pgoutput"), Map.entry("slot.name", slot),
				Map.entry("publication.autocreate.mode", "filtered"), Map.entry("snapshot.mode", "no_data"),
				Map.entry("table.include.list", "public.orders,public.debezium_signal"),
				Map.entry("signal.data.collection", "public.debezium_signal"),
				Map.entry("converter.schemas.enable", "false"), Map.entry("errors.max.retries", "0")));
		config.putAll(settings);
		this.engineProperties.putAll(config);
		this.server = LocalHttp.start(this::handle);
		this.port = this.server.getAddress().getPort();
		start();
	}

	/**
	 * The REST front's base URL.
	 * @return the URL
	 */
	@Override
	public String url() {
		return "http://127.0.0.1:" + this.port;
	}

	@Override
	public String prefix() {
		return "shop";
	}

	/**
	 * Plays a Kafka Connect before 3.6: stop, resume and offsets answer 404.
	 */
	public void withoutOffsetsApi() {
		this.offsetsApi = false;
	}

	/**
	 * Ends the task as a crash does: the engine stops, its offsets flushed, and its
	 * status says FAILED.
	 */
	@Override
	public synchronized void crash() {
		closeEngine();
		this.state = "FAILED";
		this.trace = "org.apache.kafka.connect.errors.ConnectException: the worker went away";
	}

	/**
	 * Restarts the connector's task from its stored offset, as {@code POST …/restart}
	 * does.
	 */
	@Override
	public synchronized void restart() {
		closeEngine();
		start();
	}

	/**
	 * Plays the worker's process killed: the engine stops (its offsets flushed) and the
	 * REST front refuses connections, as a worker whose pod is gone does.
	 */
	@Override
	public void workerDown() {
		// Not under the monitor: the server's stop waits for its dispatcher, which may be
		// in a handler waiting for it.
		this.server.stop(0);
		this.workerUp = false;
		synchronized (this) {
			closeEngine();
			this.state = "UNASSIGNED";
		}
	}

	/**
	 * Plays the worker started again: the REST front answers on the same port and the
	 * connector's task starts at once from its stored offset, as a distributed worker
	 * resumes the connectors of its group.
	 */
	@Override
	public synchronized void workerUp() {
		this.server = LocalHttp.start(this::handle, null, this.port);
		this.workerUp = true;
		start();
	}

	/**
	 * The rows of {@code public.orders} delivered, by id, with how many times each came.
	 * @return a copy
	 */
	@Override
	public Map<Long, Integer> deliveries() {
		return Map.copyOf(this.deliveries);
	}

	/**
	 * When a row was first delivered.
	 * @param id its id
	 * @return {@link System#nanoTime()} then, {@code null} when it was not
	 */
	@Override
	public Long arrivedAt(long id) {
		return this.arrivals.get(id);
	}

	/**
	 * Change events delivered from {@code public.orders}, duplicates included.
	 * @return the count
	 */
	@Override
	public long events() {
		return this.events.get();
	}

	/**
	 * The status as {@code GET …/status} answers it.
	 * @return {@code RUNNING}, {@code STOPPED} or {@code FAILED}
	 */
	@Override
	public String state() {
		return this.state;
	}

	private synchronized void start() {
		this.trace = null;
		this.state = "UNASSIGNED";
		DebeziumEngine<ChangeEvent<String, String>> started = DebeziumEngine.create(Json.class)
			.using(this.engineProperties)
			.using(new DebeziumEngine.ConnectorCallback() {
				@Override
				public void taskStarted() {
					EngineConnect.this.state = "RUNNING";
				}
			})
			.using((success, message, error) -> {
				if (!success) {
					this.state = "FAILED";
					this.trace = (error != null) ? String.valueOf(error) : message;
				}
			})
			.notifying(this::deliver)
			.build();
		this.engine = started;
		Thread runner = new Thread(started, "debezium-engine");
		runner.setDaemon(true);
		runner.start();
	}

	private void deliver(ChangeEvent<String, String> event) {
		if (event.value() == null || !event.destination().endsWith(".public.orders")) {
			return;
		}
		JsonNode after = JSON.readTree(event.value()).get("after");
		if (after != null && !after.isNull()) {
			this.events.incrementAndGet();
			long id = after.get("id").asLong();
			this.deliveries.merge(id, 1, Integer::sum);
			this.arrivals.putIfAbsent(id, System.nanoTime());
		}
	}

	private synchronized void closeEngine() {
		if (this.engine != null) {
			try {
				this.engine.close();
			}
			catch (IOException ex) {
				throw new UncheckedIOException(ex);
			}
			catch (IllegalStateException ex) {
				// A task that failed has shut its engine down already: nothing is left to
				// close.
			}
			this.engine = null;
			// The engine's close returns before its task has let go of the slot; a
			// stopped connector has no task.
			await().atMost(Duration.ofSeconds(30))
				.until(() -> !"t".equals(this.database.queryForString("postgres",
						"SELECT active FROM pg_replication_slots WHERE slot_name = '" + this.slot + "'")));
		}
	}

	private void handle(HttpExchange exchange) throws IOException {
		String method = exchange.getRequestMethod();
		String path = exchange.getRequestURI().getPath();
		String resource = path.substring(path.lastIndexOf('/') + 1);
		String body = new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
		int status = 200;
		String answer;
		synchronized (this) {
			boolean lifecycle = resource.equals("stop") || resource.equals("resume") || resource.equals("offsets");
			if (lifecycle && !this.offsetsApi) {
				status = 404;
				answer = "{\"error_code\":404,\"message\":\"HTTP 404 Not Found\"}";
			}
			else {
				switch (method + " " + resource) {
					case "GET status" -> answer = status();
					case "GET config" -> answer = JSON.writeValueAsString(this.engineProperties);
					case "GET offsets" -> answer = JSON.writeValueAsString(Map.of("offsets", readOffsets()));
					case "POST restart" -> {
						closeEngine();
						start();
						status = 202;
						answer = status();
					}
					case "PUT stop" -> {
						closeEngine();
						this.state = "STOPPED";
						status = 202;
						answer = "";
					}
					case "PUT resume" -> {
						if (this.engine == null) {
							start();
						}
						status = 202;
						answer = "";
					}
					case "PATCH offsets", "DELETE offsets" -> {
						if (!"STOPPED".equals(this.state)) {
							status = 400;
							answer = "{\"error_code\":400,\"message\":\"Connectors must be in the STOPPED state\"}";
						}
						else {
							writeOffsets(method.equals("DELETE") ? List.of() : JSON.readTree(body).get("offsets"));
							answer = "{\"message\":\"The offsets for this connector have been altered successfully\"}";
						}
					}
					default -> {
						status = 404;
						answer = "{\"error_code\":404,\"message\":\"HTTP 404 Not Found\"}";
					}
				}
			}
		}
		LocalHttp.answer(exchange, status, answer);
	}

	private String status() {
		List<Map<String, Object>> tasks = new ArrayList<>();
		if (!this.state.equals("STOPPED")) {
			Map<String, Object> task = new HashMap<>(Map.of("id", 0, "state", this.state, "worker_id", "engine:8083"));
			if (this.trace != null) {
				task.put("trace", this.trace);
			}
			tasks.add(task);
		}
		return JSON.writeValueAsString(Map.of("name", "orders-debezium", "connector",
				Map.of("state", this.state.equals("STOPPED") ? "STOPPED" : "RUNNING", "worker_id", "engine:8083"),
				"tasks", tasks));
	}

	@SuppressWarnings("unchecked")
	private List<Map<String, Object>> readOffsets() {
		List<Map<String, Object>> offsets = new ArrayList<>();
		if (!Files.exists(this.offsetsFile)) {
			return offsets;
		}
		try (ObjectInputStream in = new ObjectInputStream(Files.newInputStream(this.offsetsFile))) {
			for (Map.Entry<byte[], byte[]> entry : ((Map<byte[], byte[]>) in.readObject()).entrySet()) {
				JsonNode key = JSON.readTree(entry.getKey());
				offsets.add(Map.of("partition", JSON.treeToValue(key.get(1), Map.class), "offset",
						JSON.readValue(entry.getValue(), Map.class)));
			}
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
		catch (ClassNotFoundException ex) {
			throw new IllegalStateException(ex);
		}
		return offsets;
	}

	private void writeOffsets(Object entries) {
		HashMap<byte[], byte[]> raw = new HashMap<>();
		for (JsonNode entry : JSON.valueToTree(entries)) {
			raw.put(JSON.writeValueAsBytes(List.of(ENGINE, entry.get("partition"))),
					JSON.writeValueAsBytes(entry.get("offset")));
		}
		try (ObjectOutputStream out = new ObjectOutputStream(Files.newOutputStream(this.offsetsFile))) {
			out.writeObject(raw);
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

	@Override
	public void close() {
		closeEngine();
		if (this.workerUp) {
			this.server.stop(0);
		}
	}

}
