package io.slotkeeper.testbed;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Properties;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.common.Uuid;

import static org.awaitility.Awaitility.await;

/**
 * A real single-node Kafka broker in KRaft mode (broker and controller in one process),
 * in a child JVM on the test classpath's Kafka, its storage formatted first as
 * {@code kafka-storage format} does. Topics are created as they are first used.
 */
public final class KafkaBroker implements AutoCloseable {

	private static KafkaBroker shared;

	private final int port = ChildJvm.freePort();

	private final ChildJvm process;

	private final Path directory;

	/**
	 * Formats its storage and starts it; returns once it answers an admin client.
	 * @param directory where it keeps its log and its output
	 */
	public KafkaBroker(Path directory) {
		this.directory = directory;
		int controller = ChildJvm.freePort();
		Properties settings = new Properties();
		settings.putAll(Map.ofEntries(Map.entry("process.roles", "broker,controller"), Map.entry("node.id", "1"),
				Map.entry("controller.quorum.voters", "1@127.0.0.1:" + controller),
				Map.entry("listeners", "PLAINTEXT://127.0.0.1:" + this.port + ",CONTROLLER://127.0.0.1:" + controller),
				Map.entry("advertised.listeners", "PLAINTEXT://127.0.0.1:" + this.port),
				Map.entry("controller.listener.names", "CONTROLLER"),
				Map.entry("listener.security.protocol.map", "PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT"),
				Map.entry("inter.broker.listener.name", "PLAINTEXT"),
				Map.entry("log.dirs", directory.resolve("data").toString()), Map.entry("num.partitions", "1"),
				Map.entry("offsets.topic.replication.factor", "1"),
				Map.entry("transaction.state.log.replication.factor", "1"),
				Map.entry("transaction.state.log.min.isr", "1"),
				Map.entry("share.coordinator.state.topic.replication.factor", "1"),
				Map.entry("share.coordinator.state.topic.min.isr", "1"),
				Map.entry("group.initial.rebalance.delay.ms", "0"), Map.entry("auto.create.topics.enable", "true")));
		Path config = directory.resolve("server.properties");
		try {
			Files.createDirectories(directory);
			try (var out = Files.newBufferedWriter(config)) {
				settings.store(out, "slot-keeper test broker");
			}
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
		Path log = directory.resolve("broker.log");
		ChildJvm.run(log, "kafka.tools.StorageTool", "format", "-t", Uuid.randomUuid().toString(), "-c",
				config.toString());
		this.process = ChildJvm.start(log, List.of("-Xms64m", "-Xmx384m"), "kafka.Kafka", config.toString());
		await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(250)).until(this::answers);
	}

	private boolean answers() {
		if (!this.process.alive()) {
			throw new IllegalStateException("the Kafka broker exited: " + this.process.tail());
		}
		// An admin client logs every refused connection: ask it only once the port is
		// open.
		try (Socket socket = new Socket(InetAddress.getLoopbackAddress(), this.port)) {
			socket.getPort();
		}
		catch (IOException ex) {
			return false;
		}
		try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap(),
				AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, 2000, AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG,
				2000))) {
			return !admin.describeCluster().nodes().get().isEmpty();
		}
		catch (Exception ex) {
			return false;
		}
	}

	/**
	 * The broker the test JVM's tests share, started by the first that asks: each of them
	 * has its own worker, group and topics. It is killed, and its folder deleted, when
	 * the JVM exits.
	 * @return the broker
	 */
	public static synchronized KafkaBroker shared() {
		if (shared == null) {
			try {
				Path directory = Files.createTempDirectory("kafka-broker");
				shared = new KafkaBroker(directory);
				Runtime.getRuntime().addShutdownHook(new Thread(() -> {
					shared.close();
					deleteQuietly(directory);
				}, "kafka-broker-cleanup"));
			}
			catch (IOException ex) {
				throw new UncheckedIOException(ex);
			}
		}
		return shared;
	}

	private static void deleteQuietly(Path directory) {
		try (var paths = Files.walk(directory)) {
			paths.sorted(java.util.Comparator.reverseOrder()).forEach((path) -> path.toFile().delete());
		}
		catch (IOException ex) {
			// Left in the temporary folder: nothing else depends on it.
		}
	}

	/**
	 * Where clients connect.
	 * @return {@code 127.0.0.1:port}
	 */
	public String bootstrap() {
		return "127.0.0.1:" + this.port;
	}

	/**
	 * Where its output and its workers' go.
	 * @return the folder
	 */
	public Path directory() {
		return this.directory;
	}

	@Override
	public void close() {
		this.process.kill();
	}

}
