package io.slotkeeper.testbed;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Debian's podman, run with the project's {@code src/test/image/containers.conf} (the
 * settings these machines need; nothing global is changed). Each call waits for podman to
 * end and keeps what it printed.
 */
public final class Podman {

	/**
	 * The project's podman settings.
	 */
	public static final Path CONFIGURATION = Path.of("src/test/image/containers.conf").toAbsolutePath();

	private Podman() {
	}

	/**
	 * Why the image cannot be built and run here, or {@code null} when it can: podman or
	 * debootstrap missing, not root (debootstrap and the stand-in bases need it), or
	 * podman unable to run a container.
	 * @return the reason, or {@code null}
	 */
	public static String whyNotRunnable() {
		if (!Files.isExecutable(Path.of("/usr/bin/podman"))) {
			return "podman is not installed (apt-get install podman buildah runc debootstrap uidmap fuse-overlayfs)";
		}
		if (!Files.isExecutable(Path.of("/usr/sbin/debootstrap")) || !"root".equals(System.getProperty("user.name"))) {
			return "the stand-in base images need root and debootstrap (apt-get install debootstrap)";
		}
		Result info = run(Duration.ofMinutes(1), "info", "--format", "{{.Host.OCIRuntime.Name}}");
		return info.succeeded() ? null : "podman cannot run here: " + info.output();
	}

	/**
	 * Runs podman and waits for it.
	 * @param timeout how long it may take
	 * @param arguments its arguments
	 * @return its exit code and what it printed
	 */
	public static Result run(Duration timeout, String... arguments) {
		List<String> command = new ArrayList<>(List.of("podman"));
		command.addAll(List.of(arguments));
		return command(timeout, command);
	}

	/**
	 * Runs any program with the project's podman settings (a script that calls podman)
	 * and waits for it.
	 * @param timeout how long it may take
	 * @param command the program and its arguments
	 * @return its exit code and what it printed
	 */
	public static Result command(Duration timeout, List<String> command) {
		try {
			Path output = Files.createTempFile("podman", ".out");
			try {
				ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true)
					.redirectOutput(output.toFile());
				builder.environment().put("CONTAINERS_CONF", CONFIGURATION.toString());
				Process process = builder.start();
				if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
					process.destroyForcibly().waitFor();
					throw new IllegalStateException(command + " took longer than " + timeout + ": "
							+ Files.readString(output, StandardCharsets.UTF_8));
				}
				return new Result(process.exitValue(), Files.readString(output, StandardCharsets.UTF_8).strip());
			}
			finally {
				Files.deleteIfExists(output);
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

	/**
	 * What a command did.
	 *
	 * @param exitCode its exit code
	 * @param output what it printed, standard error included
	 */
	public record Result(int exitCode, String output) {

		/**
		 * Whether it exited with 0.
		 * @return whether it succeeded
		 */
		public boolean succeeded() {
			return this.exitCode == 0;
		}

		/**
		 * Its output, or an error naming the command's output when it failed.
		 * @return the output
		 */
		public String orThrow() {
			if (!succeeded()) {
				throw new IllegalStateException("exit " + this.exitCode + ": " + this.output);
			}
			return this.output;
		}

	}

}
