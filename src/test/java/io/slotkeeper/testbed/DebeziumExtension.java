package io.slotkeeper.testbed;

import java.nio.file.Files;
import java.nio.file.Path;

/**
 * slot-keeper's Debezium extension as the build made it
 * ({@code target/slot-keeper-debezium-extension-<version>.jar}, from
 * {@code debezium-extension/}), for the Connect workers the tests start.
 */
public final class DebeziumExtension {

	private DebeziumExtension() {
	}

	/**
	 * The extension's jar.
	 * @return its path
	 * @throws IllegalStateException when the build has not made it
	 */
	public static Path jar() {
		String configured = System.getProperty("testbed.debezium-extension");
		Path jar = (configured != null) ? Path.of(configured) : null;
		if (jar == null || !Files.isRegularFile(jar)) {
			throw new IllegalStateException("slot-keeper's Debezium extension is not built (" + configured
					+ "): run ./mvnw process-test-classes, which builds it");
		}
		return jar;
	}

}
