package io.slotkeeper.deploy;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import io.slotkeeper.testbed.Podman;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The image the Dockerfile makes (built once per test JVM, unchanged, by podman on
 * stand-ins for its base images, {@code src/test/image/}) and one container of it run as
 * OpenShift's restricted-v2 SCC runs it, with the chart's default memory limit: an
 * arbitrary UID in group 0, a read-only root file system but a /tmp tmpfs, no
 * capabilities, no new privileges, the configuration mounted read-only as a ConfigMap is.
 */
final class ImageContainer implements AutoCloseable {

	static final String IMAGE = "localhost/slot-keeper:image-test";

	static final String UID = "1000680000";

	// The chart's default memory limit (helm/slot-keeper/values.yaml) and termination
	// grace period.
	static final String MEMORY_LIMIT = "512m";

	static final Duration GRACE = Duration.ofSeconds(45);

	/**
	 * JVM options (JDK_JAVA_OPTIONS) on top of the image's for a heap in full use:
	 * committed whole (initial = maximum), touched at start and never given back, and
	 * collected in full whenever it has been idle for 10 s, each collection logged, so
	 * that {@link #fullCollections()} can say what stays live. Without
	 * {@code MaxHeapFreeRatio=100} a full collection would shrink the heap and the
	 * container's memory would no longer be that of a heap in full use.
	 */
	static final String MEASURED_HEAP = "-XX:InitialRAMPercentage=60 -XX:+AlwaysPreTouch -XX:MaxHeapFreeRatio=100"
			+ " -Xlog:gc:file=/tmp/gc.log -XX:G1PeriodicGCInterval=10000 -XX:-G1PeriodicGCInvokesConcurrent";

	private static boolean built;

	private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

	private final String name;

	private final Path configuration;

	private ImageContainer(String name, Path configuration) {
		this.name = name;
		this.configuration = configuration;
	}

	/**
	 * Builds the image unless this JVM built it already; skipped, saying why, where no
	 * container can run; in CI ({@code CI=true}, which installs podman) it fails instead.
	 */
	static synchronized void build() {
		String why = Podman.whyNotRunnable();
		if (System.getenv("CI") != null) {
			assertThat(why).as("CI installs podman (.ci/run); the image test must run there").isNull();
		}
		assumeTrue(why == null, () -> "image test skipped: " + why);
		if (built) {
			return;
		}
		Podman.command(Duration.ofMinutes(20), List.of("src/test/image/stand-in-bases.sh", "Dockerfile")).orThrow();
		long start = System.nanoTime();
		Podman
			.run(Duration.ofMinutes(20), "build", "--pull=never", "--network=host", "--volume",
					Path.of(System.getProperty("user.home"), ".m2") + ":/root/.m2", "--tag", IMAGE, ".")
			.orThrow();
		System.out.printf("image test: built %s in %.0f s%n", IMAGE, (System.nanoTime() - start) / 1e9);
		built = true;
	}

	/**
	 * A container of the image (not started yet) whose
	 * {@code /etc/slot-keeper/application.yaml} is the YAML given.
	 */
	static ImageContainer configuredWith(String name, String applicationYaml) throws IOException {
		Path configuration = Files.createTempDirectory("image-test-config");
		Files.writeString(configuration.resolve("application.yaml"), applicationYaml);
		// Read by an arbitrary UID, as a ConfigMap mounted read-only is.
		Files.setPosixFilePermissions(configuration, PosixFilePermissions.fromString("rwxr-xr-x"));
		Files.setPosixFilePermissions(configuration.resolve("application.yaml"),
				PosixFilePermissions.fromString("rw-r--r--"));
		return new ImageContainer(name, configuration);
	}

	String name() {
		return this.name;
	}

	void run(List<String> extra) {
		List<String> arguments = new ArrayList<>(List.of("run", "--detach", "--name", this.name, "--network=host",
				"--user", UID + ":0", "--read-only", "--read-only-tmpfs=false", "--tmpfs",
				"/tmp:rw,mode=1777,notmpcopyup", "--cap-drop=ALL", "--security-opt=no-new-privileges", "--memory",
				MEMORY_LIMIT, "--volume", this.configuration + ":/etc/slot-keeper:ro"));
		arguments.addAll(extra);
		arguments.add(IMAGE);
		Podman.run(Duration.ofMinutes(1), arguments.toArray(String[]::new)).orThrow();
	}

	void awaitReady(Duration atMost) {
		await().atMost(atMost).until(() -> status("http://127.0.0.1:9090/actuator/health/readiness") == 200);
	}

	String exec(String... command) {
		List<String> arguments = new ArrayList<>(List.of("exec", this.name));
		arguments.addAll(List.of(command));
		return Podman.run(Duration.ofMinutes(1), arguments.toArray(String[]::new)).orThrow();
	}

	String logs() {
		return Podman.run(Duration.ofMinutes(1), "logs", this.name).output();
	}

	/**
	 * {@code running OOMKilled}, as podman inspects them: {@code "true false"} for a
	 * container that runs and was never killed for its memory.
	 */
	String state() {
		return Podman
			.run(Duration.ofMinutes(1), "inspect", "--format", "{{.State.Running}} {{.State.OOMKilled}}", this.name)
			.orThrow();
	}

	/**
	 * The container's memory as its cgroup accounts it.
	 * @return the limit, all that is charged, and the anonymous part (what the kernel
	 * cannot reclaim; the rest is page cache: the jars, the archive)
	 */
	Memory memory() {
		long limit = Long.parseLong(cgroupMemory("memory.max", "memory.limit_in_bytes"));
		long used = Long.parseLong(cgroupMemory("memory.current", "memory.usage_in_bytes"));
		Matcher anonymous = Pattern.compile("(?m)^(?:anon|total_rss) (\\d+)$")
			.matcher(cgroupMemory("memory.stat", "memory.stat"));
		assertThat(anonymous.find()).as("anonymous memory in memory.stat").isTrue();
		String rss = exec("sh", "-c", "grep VmRSS /proc/1/status").replaceAll("\\D+", "");
		return new Memory(limit, used, Long.parseLong(anonymous.group(1)), Long.parseLong(rss) * 1024);
	}

	/**
	 * The heap in use right after each full collection so far, from the GC log of
	 * {@link #MEASURED_HEAP}.
	 * @return MiB, oldest first
	 */
	List<Integer> fullCollections() {
		Matcher full = Pattern.compile("Pause Full \\([^)]*\\) \\d+M->(\\d+)M").matcher(exec("cat", "/tmp/gc.log"));
		List<Integer> live = new ArrayList<>();
		while (full.find()) {
			live.add(Integer.valueOf(full.group(1)));
		}
		return live;
	}

	// A file of the container's memory controller: cgroup v2's name, or v1's where the
	// host mounts v1.
	private String cgroupMemory(String v2, String v1) {
		return exec("sh", "-c", "cat /sys/fs/cgroup/" + v2 + " 2>/dev/null || cat /sys/fs/cgroup/memory/" + v1);
	}

	int status(String url) {
		try {
			return this.http
				.send(HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(2)).build(),
						HttpResponse.BodyHandlers.discarding())
				.statusCode();
		}
		catch (IOException ex) {
			return -1;
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			return -1;
		}
	}

	String get(String url, Duration timeout) throws IOException, InterruptedException {
		return this.http
			.send(HttpRequest.newBuilder(URI.create(url)).timeout(timeout).build(),
					HttpResponse.BodyHandlers.ofString())
			.body();
	}

	@Override
	public void close() throws IOException {
		Podman.run(Duration.ofMinutes(1), "rm", "--force", "--time", "0", this.name);
		Files.deleteIfExists(this.configuration.resolve("application.yaml"));
		Files.deleteIfExists(this.configuration);
	}

	/**
	 * A container's memory in bytes.
	 */
	record Memory(long limit, long charged, long anonymous, long jvmRss) {

		@Override
		public String toString() {
			return String.format("cgroup memory %.1f MiB (anonymous %.1f MiB) of %.1f MiB, JVM RSS %.1f MiB",
					mib(this.charged), mib(this.anonymous), mib(this.limit), mib(this.jvmRss));
		}

		static double mib(long bytes) {
			return bytes / 1048576.0;
		}

	}

}
