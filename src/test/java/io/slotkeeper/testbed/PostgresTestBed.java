package io.slotkeeper.testbed;

import java.util.HashMap;
import java.util.Map;

/**
 * Hands out real PostgreSQL servers to tests: one shared server per test JVM (give each
 * test its own database with {@link PostgresServer#createDatabase()}), and dedicated
 * servers for tests that stop, freeze or reconfigure theirs.
 * <p>
 * The backend is chosen with {@code -Dtestbed.backend}: {@code embedded} (default: the
 * binaries that Maven delivers, {@code -Dpg.version} picks their version) or
 * {@code testcontainers} (a Docker engine and the
 * {@code postgres:<testbed.container-version>} image, default 17).
 */
public final class PostgresTestBed {

	private static PostgresServer shared;

	private PostgresTestBed() {
	}

	/**
	 * The server shared by the whole test JVM, started on first use and stopped when the
	 * JVM exits.
	 * @return the server
	 */
	public static synchronized PostgresServer shared() {
		if (shared == null) {
			PostgresServer server = dedicated(Map.of());
			Runtime.getRuntime().addShutdownHook(new Thread(server::close, "postgres-test-bed-shutdown"));
			shared = server;
		}
		return shared;
	}

	/**
	 * A server of the test's own; the test closes it.
	 * @param extraSettings server settings on top of logical decoding
	 * @return the server
	 */
	public static PostgresServer dedicated(Map<String, String> extraSettings) {
		Map<String, String> settings = new HashMap<>(PostgresServer.LOGICAL_DECODING);
		settings.putAll(extraSettings);
		String backend = System.getProperty("testbed.backend", "embedded");
		return switch (backend) {
			case "embedded" -> new EmbeddedPostgresServer(settings);
			case "testcontainers" ->
				new ContainerPostgresServer(settings, System.getProperty("testbed.container-version", "17"));
			default -> throw new IllegalArgumentException(
					"testbed.backend must be embedded or testcontainers, not " + backend);
		};
	}

}
