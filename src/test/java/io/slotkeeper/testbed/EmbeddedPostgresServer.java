package io.slotkeeper.testbed;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.Map;
import java.util.stream.Stream;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;

/**
 * A server from the Maven-delivered embedded binaries (io.zonky), with its own data directory so that it can be
 * stopped and started again on the same port.
 */
final class EmbeddedPostgresServer implements PostgresServer {

	private final Path dataDirectory;

	private final EmbeddedPostgres.Builder builder;

	private EmbeddedPostgres postgres;

	EmbeddedPostgresServer(Map<String, String> settings) {
		try {
			this.dataDirectory = Files.createTempDirectory("slotkeeper-pg-");
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
		this.builder = EmbeddedPostgres.builder().setDataDirectory(this.dataDirectory).setCleanDataDirectory(false);
		settings.forEach(this.builder::setServerConfig);
		start();
		this.builder.setPort(this.postgres.getPort());
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
		signalProcessGroup("-STOP");
	}

	@Override
	public void thaw() {
		signalProcessGroup("-CONT");
	}

	// pg_ctl starts the postmaster in a session of its own, so its process group holds every backend too.
	private void signalProcessGroup(String signal) {
		try {
			String pid = Files.readAllLines(this.dataDirectory.resolve("postmaster.pid")).get(0).trim();
			Process kill = new ProcessBuilder("kill", signal, "--", "-" + pid).inheritIO().start();
			if (kill.waitFor() != 0) {
				throw new IllegalStateException("kill " + signal + " -" + pid + " failed");
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
