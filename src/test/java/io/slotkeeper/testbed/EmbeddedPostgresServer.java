package io.slotkeeper.testbed;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;

import static org.awaitility.Awaitility.await;

/**
 * A server from the Maven-delivered embedded binaries (io.zonky), with its own data
 * directory so that it can be stopped and started again on the same port.
 */
final class EmbeddedPostgresServer implements PostgresServer {

	private final Path dataDirectory;

	private final EmbeddedPostgres.Builder builder;

	private EmbeddedPostgres postgres;

	EmbeddedPostgresServer(Map<String, String> settings) {
		this(settings, (directory) -> {
		});
	}

	/**
	 * A server on a data directory that {@code prepare} fills first (an empty one is
	 * initialised).
	 */
	EmbeddedPostgresServer(Map<String, String> settings, java.util.function.Consumer<Path> prepare) {
		try {
			this.dataDirectory = Files.createTempDirectory("slotkeeper-pg-");
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
		prepare.accept(this.dataDirectory);
		this.builder = EmbeddedPostgres.builder().setDataDirectory(this.dataDirectory).setCleanDataDirectory(false);
		settings.forEach(this.builder::setServerConfig);
		start();
		this.builder.setPort(this.postgres.getPort());
	}

	/**
	 * Puts lines at the top of {@code pg_hba.conf} (the first matching line decides) and
	 * reloads the configuration.
	 * @param lines the lines, for example {@code hostssl all tlsonly 127.0.0.1/32 trust}
	 */
	void prependHostBasedAuthentication(java.util.List<String> lines) {
		Path hba = this.dataDirectory.resolve("pg_hba.conf");
		try {
			Files.writeString(hba, String.join("\n", lines) + "\n" + Files.readString(hba));
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
		execute("postgres", "SELECT pg_reload_conf()");
	}

	Path dataDirectory() {
		return this.dataDirectory;
	}

	@Override
	public String host() {
		return "localhost";
	}

	@Override
	public int port() {
		return this.postgres.getPort();
	}

	@Override
	public String user() {
		return "postgres";
	}

	@Override
	public String password() {
		return null;
	}

	@Override
	public synchronized void stop() {
		try {
			this.postgres.close();
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
		// pg_ctl gives up after 5 s while the server may still be shutting down (waiting
		// for a consumer to confirm):
		// stopped means its postmaster is gone.
		await().atMost(Duration.ofSeconds(90)).until(() -> !Files.exists(this.dataDirectory.resolve("postmaster.pid")));
	}

	@Override
	public synchronized void start() {
		try {
			this.postgres = this.builder.start();
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

	@Override
	public void freeze() {
		signalServerProcesses("-STOP");
	}

	@Override
	public void thaw() {
		signalServerProcesses("-CONT");
	}

	// Every server process calls setsid(), so the postmaster's process group holds only
	// itself: signal the
	// postmaster and each of its children by pid.
	private void signalServerProcesses(String signal) {
		try {
			long postmaster = Long
				.parseLong(Files.readAllLines(this.dataDirectory.resolve("postmaster.pid")).get(0).trim());
			List<String> command = new ArrayList<>(List.of("kill", signal, Long.toString(postmaster)));
			ProcessHandle.of(postmaster)
				.orElseThrow(() -> new IllegalStateException("no postmaster " + postmaster))
				.children()
				.forEach((child) -> command.add(Long.toString(child.pid())));
			Process kill = new ProcessBuilder(command).redirectErrorStream(true).start();
			if (kill.waitFor() != 0) {
				throw new IllegalStateException(
						String.join(" ", command) + " failed: " + new String(kill.getInputStream().readAllBytes()));
			}
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException(ex);
		}
	}

	@Override
	public PostgresServer standby() {
		return Standby.of(this, this.dataDirectory, false);
	}

	@Override
	public PostgresServer slotSyncingStandby() {
		return Standby.of(this, this.dataDirectory, true);
	}

	@Override
	public void rejoinAsStandbyOf(PostgresServer primary) {
		Standby.rejoin(this, this.dataDirectory, primary);
	}

	@Override
	public boolean supportsFaults() {
		return true;
	}

	@Override
	public synchronized void close() {
		stop();
		try (Stream<Path> paths = Files.walk(this.dataDirectory)) {
			paths.sorted(Comparator.reverseOrder()).forEach((path) -> path.toFile().delete());
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

}
