package io.slotkeeper.testbed;

import java.io.File;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.atomic.AtomicInteger;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import static org.awaitility.Awaitility.await;

/**
 * A real Kafka Connect distributed worker (the test classpath's Kafka,
 * {@code ConnectDistributed} in a child JVM) on a {@link KafkaBroker}, running the
 * Debezium PostgreSQL connector {@code orders-debezium} with JSON converters, and a
 * consumer of its {@code public.orders} topic. Each instance has its own group, internal
 * topics and topic prefix, so several share one broker. {@link #workerDown()} kills the
 * worker's process; {@link #workerUp()} starts a new one with the same group and REST
 * port, which resumes the connector from its stored offset. {@link #close()} removes the
 * connector and its offsets and leaves the worker to the next instance on that broker,
 * which has a topic prefix of its own.
 *
 * <p>
 * What the real worker did that the stand-ins did not (slot-keeper was fixed where it
 * relied on the stand-ins' way): {@code PUT …/stop} answers 204 at once, the status says
 * STOPPED a little later and lists no task a little after that, where
 * {@link EngineConnect} stopped synchronously; {@code POST …/restart} is asynchronous
 * too, so the status just after it still shows the old failure; {@code PATCH …/offsets}
 * on a connector that is not STOPPED is 400; a worker that is starting refuses
 * connections, then answers every path with Jetty's 404 error page (JSON
 * {@code {"message":"Not Found","url":…,"status":"404"}} when JSON is asked for,
 * pretty-printed over several lines), then its connector within about 2 s; a worker
 * started again resumes its connector at once from the stored offset, and when that
 * offset is older than a recreated slot the task may stream on from the slot's start
 * (moving the slot on) rather than fail; a terminated walsender fails the task with "An
 * exception occurred in the change event producer. This connector will be stopped." while
 * the connector stays RUNNING.
 */
public final class RealKafkaConnect implements CdcConnector {

	/**
	 * The connector's name in Kafka Connect.
	 */
	public static final String NAME = "orders-debezium";

	private static final JsonMapper JSON = JsonMapper.builder().build();

	private static final AtomicInteger instances = new AtomicInteger();

	private static final AtomicInteger workers = new AtomicInteger();

	// Workers whose connector was removed with its offsets, kept for the next instance on
	// the same broker: a worker
	// takes about 13 s to start on two cores, and the real-Connect scenarios make about
	// twenty.
	private static final Deque<Idle> idle = new ArrayDeque<>();

	private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

	private final PostgresServer server;

	private final String slot;

	private final String prefix;

	private final int restPort;

	private final KafkaBroker broker;

	private final Path workerConfig;

	private final Path log;

	private final OrdersTopic topic;

	private volatile ChildJvm worker;

	private final Map<String, String> config;

	/**
	 * Starts a worker, creates the connector and waits until its task runs.
	 * @param broker the broker
	 * @param server the database server
	 * @param database the database with {@code public.orders} and the signal table
	 * {@code public.debezium_signal}
	 * @param slot the connector's slot
	 * @param settings the connector's further settings, such as
	 * {@code offset.mismatch.strategy}
	 */
	public RealKafkaConnect(KafkaBroker broker, PostgresServer server, String database, String slot,
			Map<String, String> settings) {
		this.server = server;
		this.slot = slot;
		this.broker = broker;
		this.prefix = "shop" + instances.incrementAndGet();
		Idle kept = takeIdle(broker);
		if (kept != null) {
			this.restPort = kept.restPort();
			this.log = kept.log();
			this.workerConfig = kept.workerConfig();
			this.worker = kept.jvm();
		}
		else {
			int n = workers.incrementAndGet();
			this.restPort = ChildJvm.freePort();
			this.log = broker.directory().resolve("connect-" + n + ".log");
			this.workerConfig = broker.directory().resolve("connect-" + n + ".properties");
			configureWorker(broker, n);
			workerUp();
		}
		Map<String, String> config = new HashMap<>(Map.ofEntries(
				Map.entry("connector.class", "io.debezium.connector.postgresql.PostgresConnector"),
				Map.entry("tasks.max", "1"), Map.entry("database.hostname", server.host()),
				Map.entry("database.port", Integer.toString(server.port())), Map.entry("database.user", server.user()),
				Map.entry("database.password", ""), Map.entry("database.dbname", database),
				Map.entry("topic.prefix", this.prefix), Map.entry("plugin.name", "pgoutput"),
				Map.entry("slot.name", slot), Map.entry("publication.autocreate.mode", "filtered"),
				Map.entry("snapshot.mode", "no_data"),
				Map.entry("table.include.list", "public.orders,public.debezium_signal"),
				Map.entry("signal.data.collection", "public.debezium_signal"), Map.entry("errors.max.retries", "0")));
		config.putAll(settings);
		this.config = Map.copyOf(config);
		call("POST", "/connectors", Map.of("name", NAME, "config", config));
		this.topic = new OrdersTopic(broker.bootstrap(), this.prefix);
		await().atMost(Duration.ofSeconds(60)).until(() -> "RUNNING".equals(state()));
	}

	private void configureWorker(KafkaBroker broker, int n) {
		Properties worker = new Properties();
		worker.putAll(Map.ofEntries(Map.entry("bootstrap.servers", broker.bootstrap()),
				Map.entry("group.id", "connect-" + n), Map.entry("config.storage.topic", "connect-" + n + "-configs"),
				Map.entry("offset.storage.topic", "connect-" + n + "-offsets"),
				Map.entry("status.storage.topic", "connect-" + n + "-status"),
				Map.entry("config.storage.replication.factor", "1"),
				Map.entry("offset.storage.replication.factor", "1"),
				Map.entry("status.storage.replication.factor", "1"),
				Map.entry("key.converter", "org.apache.kafka.connect.json.JsonConverter"),
				Map.entry("value.converter", "org.apache.kafka.connect.json.JsonConverter"),
				Map.entry("key.converter.schemas.enable", "false"),
				Map.entry("value.converter.schemas.enable", "false"), Map.entry("offset.flush.interval.ms", "1000"),
				// A worker started again gets the connector of the one killed at once,
				// not after five minutes.
				Map.entry("scheduled.rebalance.max.delay.ms", "0"),
				Map.entry("listeners", "http://127.0.0.1:" + this.restPort)));
		try (var out = Files.newBufferedWriter(this.workerConfig)) {
			worker.store(out, "slot-keeper test worker");
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

	/**
	 * The connector's configuration, as it was created.
	 * @return the settings
	 */
	public Map<String, String> config() {
		return this.config;
	}

	@Override
	public String url() {
		return "http://127.0.0.1:" + this.restPort;
	}

	@Override
	public String prefix() {
		return this.prefix;
	}

	@Override
	public String state() {
		HttpResponse<String> answer = send("GET", "/connectors/" + NAME + "/status", null);
		if (answer == null) {
			return "UNREACHABLE";
		}
		if (answer.statusCode() != 200) {
			return "UNKNOWN (" + answer.statusCode() + ")";
		}
		JsonNode status = JSON.readTree(answer.body());
		JsonNode tasks = status.path("tasks");
		return tasks.isEmpty() ? status.path("connector").path("state").asString()
				: tasks.get(0).path("state").asString();
	}

	/**
	 * The connector's status as Kafka Connect answers it.
	 * @return the JSON body, {@code null} when it does not answer 200
	 */
	public JsonNode status() {
		HttpResponse<String> answer = send("GET", "/connectors/" + NAME + "/status", null);
		return (answer != null && answer.statusCode() == 200) ? JSON.readTree(answer.body()) : null;
	}

	/**
	 * A user's {@code PUT /connectors/orders-debezium/<what>}, such as {@code /stop},
	 * {@code /pause} or {@code /resume}.
	 * @param what the path after the connector's
	 * @return Kafka Connect's status code, 0 when it did not answer
	 */
	public int put(String what) {
		HttpResponse<String> answer = send("PUT", "/connectors/" + NAME + what, null);
		return (answer != null) ? answer.statusCode() : 0;
	}

	// The walsender ended under the task, with no retries allowed: Debezium fails the
	// task. Reading the stream it
	// fails at once; waiting on a flush it fails after lsn.flush.timeout.ms (30 s by
	// default), and its stop waits on a
	// flush once more before the worker reports FAILED: about 70 s in the soak, hence two
	// minutes.
	// A walsender ended while the task was still starting its stream is retried by
	// Debezium
	// (slot.max.retries) without failing the task: one that comes back is ended too,
	// until
	// the task fails.
	@Override
	public void crash() {
		String walsender = "SELECT active_pid FROM pg_replication_slots WHERE slot_name = '" + this.slot
				+ "' AND active_pid IS NOT NULL";
		String[] ended = { this.server.queryForString("postgres", walsender) };
		this.server.execute("postgres", "SELECT pg_terminate_backend(active_pid) FROM pg_replication_slots"
				+ " WHERE slot_name = '" + this.slot + "' AND active_pid IS NOT NULL");
		await().atMost(Duration.ofSeconds(120)).pollInterval(Duration.ofMillis(200)).until(() -> {
			if ("FAILED".equals(state())) {
				return true;
			}
			String now = this.server.queryForString("postgres", walsender);
			if (now != null && !now.equals(ended[0])) {
				ended[0] = now;
				this.server.execute("postgres", "SELECT pg_terminate_backend(" + Integer.parseInt(now) + ")");
			}
			return false;
		});
		awaitSlotReleased();
	}

	@Override
	public void restart() {
		call("POST", "/connectors/" + NAME + "/restart?includeTasks=true", null);
	}

	@Override
	public void workerDown() {
		this.worker.kill();
		awaitSlotReleased();
	}

	@Override
	public void workerUp() {
		// slot-keeper's Debezium extension beside Debezium, where the connector's class
		// loader finds its signal actions.
		this.worker = ChildJvm.startCommand(this.log,
				JavaCommand.of(System.getProperty("java.class.path") + File.pathSeparator + DebeziumExtension.jar(),
						"-Xms128m", "-Xmx512m"),
				"org.apache.kafka.connect.cli.ConnectDistributed", this.workerConfig.toString());
		await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(200)).until(() -> {
			if (!this.worker.alive()) {
				throw new IllegalStateException("the Kafka Connect worker exited: " + this.worker.tail());
			}
			HttpResponse<String> root = send("GET", "/", null);
			return root != null && root.statusCode() == 200;
		});
	}

	private void awaitSlotReleased() {
		await().atMost(Duration.ofSeconds(30))
			.until(() -> !"t".equals(this.server.queryForString("postgres",
					"SELECT active FROM pg_replication_slots WHERE slot_name = '" + this.slot + "'")));
	}

	@Override
	public Map<Long, Integer> deliveries() {
		return this.topic.deliveries();
	}

	/**
	 * The ids of {@code public.orders} whose delete events the topic delivered.
	 * @return the ids
	 */
	public java.util.Set<Long> deleted() {
		return this.topic.deleted();
	}

	/**
	 * A row's last state downstream: whether its last event carried it or deleted it.
	 * @param id the row's id
	 * @return {@code true} alive, {@code false} deleted, {@code null} never seen
	 */
	public Boolean alive(long id) {
		return this.topic.alive(id);
	}

	/**
	 * The truncate events ({@code op: t}) of {@code public.orders} consumed so far.
	 * @return how many
	 */
	public long truncates() {
		return this.topic.truncates();
	}

	@Override
	public Long arrivedAt(long id) {
		return this.topic.arrivedAt(id);
	}

	@Override
	public long events() {
		return this.topic.events();
	}

	/**
	 * Snapshot reads ({@code op: r}) delivered from every table topic of the connector.
	 * @return the count
	 */
	public long snapshotReads() {
		return this.topic.reads();
	}

	/**
	 * When the last snapshot read arrived.
	 * @return {@link System#nanoTime()} then, 0 before any
	 */
	public long lastSnapshotReadAt() {
		return this.topic.lastReadAt();
	}

	private void call(String method, String path, Object body) {
		HttpResponse<String> answer = send(method, path, body);
		if (answer == null || answer.statusCode() >= 300) {
			throw new IllegalStateException(method + " " + path + " answered "
					+ ((answer != null) ? answer.statusCode() + ": " + answer.body() : "nothing"));
		}
	}

	// null when the worker cannot be reached
	private HttpResponse<String> send(String method, String path, Object body) {
		HttpRequest request = HttpRequest.newBuilder(URI.create(url() + path))
			.timeout(Duration.ofSeconds(10))
			.header("Content-Type", "application/json")
			.method(method,
					(body != null) ? HttpRequest.BodyPublishers.ofString(JSON.writeValueAsString(body))
							: HttpRequest.BodyPublishers.noBody())
			.build();
		try {
			return this.http.send(request, HttpResponse.BodyHandlers.ofString());
		}
		catch (IOException ex) {
			return null;
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			return null;
		}
	}

	/**
	 * Removes the connector with its stored offsets and keeps the worker for the next
	 * instance; a worker that does not answer each step as it should is killed instead.
	 */
	@Override
	public void close() {
		if (this.topic != null) {
			this.topic.close();
		}
		if (this.worker.alive() && removed()) {
			synchronized (idle) {
				idle.push(new Idle(this.broker, this.worker, this.restPort, this.workerConfig, this.log));
			}
		}
		else {
			this.worker.kill();
		}
	}

	// Offsets are reset (they may be only while STOPPED) so that the next connector of
	// this name lists none of them.
	private boolean removed() {
		try {
			HttpResponse<String> stop = send("PUT", "/connectors/" + NAME + "/stop", null);
			if (stop == null || stop.statusCode() >= 300) {
				return false;
			}
			await().atMost(Duration.ofSeconds(30)).until(() -> "STOPPED".equals(connectorState()));
			HttpResponse<String> reset = send("DELETE", "/connectors/" + NAME + "/offsets", null);
			HttpResponse<String> delete = send("DELETE", "/connectors/" + NAME, null);
			if (reset == null || reset.statusCode() != 200 || delete == null || delete.statusCode() != 204) {
				return false;
			}
			await().atMost(Duration.ofSeconds(30)).until(() -> {
				HttpResponse<String> gone = send("GET", "/connectors/" + NAME + "/status", null);
				return gone != null && gone.statusCode() == 404;
			});
			return true;
		}
		catch (RuntimeException ex) {
			return false;
		}
	}

	private String connectorState() {
		JsonNode status = status();
		return (status != null) ? status.path("connector").path("state").asString() : null;
	}

	private static Idle takeIdle(KafkaBroker broker) {
		synchronized (idle) {
			for (java.util.Iterator<Idle> kept = idle.iterator(); kept.hasNext();) {
				Idle worker = kept.next();
				if (worker.broker() == broker) {
					kept.remove();
					if (worker.jvm().alive()) {
						return worker;
					}
				}
			}
			return null;
		}
	}

	/**
	 * A worker with no connector, waiting for the next instance.
	 */
	private record Idle(KafkaBroker broker, ChildJvm jvm, int restPort, Path workerConfig, Path log) {
	}

}
