package io.slotkeeper.soak;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import io.slotkeeper.SlotKeeperApplication;
import io.slotkeeper.testbed.JavaCommand;

/**
 * One slot-keeper instance in a JVM of its own, as a pod runs it: configured through
 * environment variables in the forms people write, killed with {@code SIGKILL}, frozen
 * with {@code SIGSTOP}, started again with the same configuration; its output appended to
 * one log file across its lives.
 */
final class Instance implements AutoCloseable {

	private final String name;

	private final Map<String, String> environment;

	private final Path log;

	private final int port = freePort();

	private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

	private volatile Process process;

	private volatile int lives;

	Instance(String name, Map<String, String> environment, Path log) {
		this.name = name;
		this.environment = environment;
		this.log = log;
		start();
	}

	void start() {
		List<String> command = JavaCommand.onTestClassPath("-Xmx256m", "-XX:+ExitOnOutOfMemoryError");
		command.add(SlotKeeperApplication.class.getName());
		ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true)
			.redirectOutput(ProcessBuilder.Redirect.appendTo(this.log.toFile()));
		builder.environment().putAll(this.environment);
		builder.environment().put("SERVER_PORT", Integer.toString(this.port));
		try {
			Files.createDirectories(this.log.getParent());
			this.process = builder.start();
			this.lives++;
			Process started = this.process;
			Runtime.getRuntime().addShutdownHook(new Thread(started::destroyForcibly, "soak-instance-reaper"));
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

	/**
	 * Kills it as the kernel kills a pod's process: no shutdown hook runs, its sessions
	 * end with its sockets.
	 */
	void kill() {
		signal("KILL");
		try {
			this.process.waitFor();
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
	}

	void freeze() {
		signal("STOP");
	}

	void thaw() {
		signal("CONT");
	}

	boolean alive() {
		return this.process.isAlive();
	}

	/**
	 * A {@code GET} of its API or Actuator.
	 * @param path for example {@code /actuator/health}
	 * @param token the bearer token, {@code null} for none
	 * @return the body when it answered 2xx, {@code null} otherwise
	 */
	String get(String path, String token) {
		HttpRequest.Builder request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + this.port + path))
			.timeout(Duration.ofSeconds(5));
		if (token != null) {
			request.header("Authorization", "Bearer " + token);
		}
		try {
			HttpResponse<String> answer = this.http.send(request.build(), HttpResponse.BodyHandlers.ofString());
			return (answer.statusCode() / 100 == 2) ? answer.body() : null;
		}
		catch (IOException ex) {
			return null;
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			return null;
		}
	}

	String name() {
		return this.name;
	}

	/**
	 * What its process holds now, from {@code /proc}: resident memory and threads.
	 * @return {@code {rss in KiB, threads}}, zeros when it is not running
	 */
	long[] resources() {
		try {
			long rss = 0;
			long threads = 0;
			for (String line : Files.readAllLines(Path.of("/proc", Long.toString(this.process.pid()), "status"))) {
				if (line.startsWith("VmRSS:")) {
					rss = Long.parseLong(line.replaceAll("[^0-9]", ""));
				}
				else if (line.startsWith("Threads:")) {
					threads = Long.parseLong(line.replaceAll("[^0-9]", ""));
				}
			}
			return new long[] { rss, threads };
		}
		catch (IOException ex) {
			return new long[] { 0, 0 };
		}
	}

	Path log() {
		return this.log;
	}

	int lives() {
		return this.lives;
	}

	private void signal(String signal) {
		try {
			new ProcessBuilder("kill", "-" + signal, Long.toString(this.process.pid())).inheritIO().start().waitFor();
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
	}

	private static int freePort() {
		try (ServerSocket socket = new ServerSocket(0)) {
			return socket.getLocalPort();
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

	@Override
	public void close() {
		thaw();
		this.process.destroyForcibly();
	}

}
