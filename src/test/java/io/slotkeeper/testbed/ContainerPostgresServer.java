package io.slotkeeper.testbed;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.testcontainers.postgresql.PostgreSQLContainer;

/**
 * A server in a Testcontainers {@code postgres} image, for machines with a Docker engine
 * ({@code -Dtestbed.backend=testcontainers}). It only hands out a server with logical
 * decoding on; fault tests that stop or freeze the server are skipped on it.
 */
final class ContainerPostgresServer implements PostgresServer {

	private final PostgreSQLContainer container;

	ContainerPostgresServer(Map<String, String> settings, String majorVersion) {
		List<String> command = new ArrayList<>(List.of("postgres"));
		settings.forEach((key, value) -> command.addAll(List.of("-c", key + "=" + value)));
		this.container = new PostgreSQLContainer("postgres:" + majorVersion)
			.withCommand(command.toArray(String[]::new));
		this.container.start();
	}

	@Override
	public String host() {
		return this.container.getHost();
	}

	@Override
	public int port() {
		return this.container.getMappedPort(5432);
	}

	@Override
	public String user() {
		return this.container.getUsername();
	}

	@Override
	public String password() {
		return this.container.getPassword();
	}

	@Override
	public void stop() {
		throw new UnsupportedOperationException("the container backend does not stop servers");
	}

	@Override
	public void start() {
		throw new UnsupportedOperationException("the container backend does not restart servers");
	}

	@Override
	public void freeze() {
		throw new UnsupportedOperationException("the container backend does not freeze servers");
	}

	@Override
	public void thaw() {
		throw new UnsupportedOperationException("the container backend does not freeze servers");
	}

	@Override
	public boolean supportsFaults() {
		return false;
	}

	@Override
	public void close() {
		this.container.stop();
	}

}
