package io.slotkeeper.testbed;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import static org.awaitility.Awaitility.await;

/**
 * Debian's PgBouncer in front of a test server, in transaction pooling mode, handing each
 * transaction the server session idle longest ({@code server_round_robin}) as a busy pool
 * does: consecutive statements of one client run in different server sessions once it has
 * more than one.
 */
public final class PgBouncer implements AutoCloseable {

	/**
	 * Where Debian installs it.
	 */
	public static final Path BINARY = Path.of("/usr/sbin/pgbouncer");

	private final Process process;

	private final Path directory;

	private final int port;

	/**
	 * Starts PgBouncer on a free loopback port in front of a server's database.
	 * @param server the server, reached with trust authentication as its superuser
	 * @param database the database it serves
	 */
	public PgBouncer(PostgresServer server, String database) {
		try {
			this.port = freePort();
			this.directory = Files.createTempDirectory("pgbouncer");
			// Run as nobody when the tests run as root: it writes its log and pid file
			// here.
			Files.setPosixFilePermissions(this.directory, PosixFilePermissions.fromString("rwxrwxrwx"));
			Path users = this.directory.resolve("users.txt");
			Files.writeString(users, "\"" + server.user() + "\" \"\"\n");
			Path config = this.directory.resolve("pgbouncer.ini");
			Files.writeString(config, String.join("\n", "[databases]",
					database + " = host=" + server.host() + " port=" + server.port() + " dbname=" + database, "",
					"[pgbouncer]", "listen_addr = 127.0.0.1", "listen_port = " + this.port, "auth_type = trust",
					"auth_file = " + users, "pool_mode = transaction", "server_round_robin = 1",
					"default_pool_size = 4", "ignore_startup_parameters = extra_float_digits,options",
					"logfile = " + this.directory.resolve("log"), "pidfile = " + this.directory.resolve("pid"),
					"unix_socket_dir =", ""));
			List<String> command = new ArrayList<>(List.of(BINARY.toString()));
			// PgBouncer refuses to run as root, which CI is.
			if ("root".equals(System.getProperty("user.name"))) {
				command.addAll(List.of("-u", "nobody"));
			}
			command.add(config.toString());
			this.process = new ProcessBuilder(command).redirectErrorStream(true)
				.redirectOutput(this.directory.resolve("out").toFile())
				.start();
			await().atMost(Duration.ofSeconds(10)).until(() -> accepts(this.port));
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

	/**
	 * Whether PgBouncer is installed here.
	 * @return whether its binary exists
	 */
	public static boolean installed() {
		return Files.isExecutable(BINARY);
	}

	/**
	 * A PgJDBC URL of the database through PgBouncer.
	 * @param database the database
	 * @return the URL
	 */
	public String jdbcUrl(String database) {
		return "jdbc:postgresql://127.0.0.1:" + this.port + "/" + database;
	}

	private static boolean accepts(int port) {
		try (Socket socket = new Socket(InetAddress.getLoopbackAddress(), port)) {
			return true;
		}
		catch (IOException ex) {
			return false;
		}
	}

	private static int freePort() throws IOException {
		try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
			return socket.getLocalPort();
		}
	}

	@Override
	public void close() {
		this.process.destroy();
		try {
			// PgBouncer removes its pid file as it exits: walking the directory meanwhile
			// can meet a file gone.
			this.process.waitFor(10, java.util.concurrent.TimeUnit.SECONDS);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
		try (var files = Files.walk(this.directory)) {
			files.sorted(java.util.Comparator.reverseOrder()).forEach((path) -> path.toFile().delete());
		}
		catch (IOException | java.io.UncheckedIOException ex) {
			// A temporary directory: left for the system to clean.
		}
	}

}
