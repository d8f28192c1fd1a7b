package io.slotkeeper.testbed;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * A Java main class run in a process of its own on the test classpath, its output in a
 * log file: what the real Kafka broker and Kafka Connect worker run in, so that a test
 * can kill one as a pod is killed and start it again.
 */
final class ChildJvm implements AutoCloseable {

	private final Process process;

	private final Path log;

	private ChildJvm(Process process, Path log) {
		this.process = process;
		this.log = log;
	}

	/**
	 * Starts the class.
	 * @param log where its output goes (appended)
	 * @param options JVM options
	 * @param mainClass the class whose {@code main} runs
	 * @param args its arguments
	 * @return the running process
	 */
	static ChildJvm start(Path log, List<String> options, String mainClass, String... args) {
		return startCommand(log, JavaCommand.onTestClassPath(options.toArray(String[]::new)), mainClass, args);
	}

	/**
	 * Starts the class with a command of the caller's.
	 * @param log where its output goes (appended)
	 * @param java the command up to the main class ({@link JavaCommand})
	 * @param mainClass the class whose {@code main} runs
	 * @param args its arguments
	 * @return the running process
	 */
	static ChildJvm startCommand(Path log, List<String> java, String mainClass, String... args) {
		List<String> command = new java.util.ArrayList<>(java);
		command.add(mainClass);
		command.addAll(List.of(args));
		try {
			Files.createDirectories(log.getParent());
			Process process = new ProcessBuilder(command).redirectErrorStream(true)
				.redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()))
				.start();
			// A test JVM that ends without closing it (a crash, a time-out) must not
			// leave a broker or worker running.
			Runtime.getRuntime().addShutdownHook(new Thread(process::destroyForcibly, "child-jvm-reaper"));
			return new ChildJvm(process, log);
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

	/**
	 * Runs the class to its end.
	 * @param log where its output goes
	 * @param mainClass the class
	 * @param args its arguments
	 * @throws IllegalStateException when it exits other than 0, with the end of its
	 * output
	 */
	static void run(Path log, String mainClass, String... args) {
		ChildJvm child = start(log, List.of("-Xmx256m"), mainClass, args);
		try {
			int exit = child.process.waitFor();
			if (exit != 0) {
				throw new IllegalStateException(mainClass + " exited " + exit + ": " + child.tail());
			}
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException(ex);
		}
	}

	boolean alive() {
		return this.process.isAlive();
	}

	/**
	 * The end of its output, for a failure's message.
	 * @return the last 4,000 characters
	 */
	String tail() {
		try {
			String text = Files.readString(this.log);
			return text.substring(Math.max(0, text.length() - 4000));
		}
		catch (IOException ex) {
			return "(no log: " + ex.getMessage() + ")";
		}
	}

	/**
	 * Kills it as the kernel does a pod's process: no shutdown hook runs.
	 */
	void kill() {
		this.process.destroyForcibly();
		try {
			this.process.waitFor();
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
	}

	@Override
	public void close() {
		kill();
	}

	static int freePort() {
		try (ServerSocket socket = new ServerSocket(0)) {
			return socket.getLocalPort();
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

}
