package io.slotkeeper.connect;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.slotkeeper.config.ConnectorProperties;
import io.slotkeeper.config.StrimziStatusFrom;
import io.slotkeeper.testbed.StrimziResources;
import io.slotkeeper.testbed.TestTargets;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Whether slot-keeper's Debezium extension is where a Strimzi-managed connector runs, as
 * its {@code KafkaConnect}'s {@code spec.build.plugins} say: installed when an artifact
 * is the extension's, absent when the build has none, untold when the image is the user's
 * own or the resources cannot be read.
 */
class StrimziExtensionCheckTests {

	private static final Map<String, Object> DEBEZIUM = Map.of("type", "tgz", "url",
			"https://repo1.maven.org/maven2/io/debezium/debezium-connector-postgres/3.6.1.Final/"
					+ "debezium-connector-postgres-3.6.1.Final-plugin.tar.gz");

	private final StrimziResources api = new StrimziResources(StrimziConnectorApiTests.TOKEN, "v1");

	private final ConnectorProperties connector = TestTargets.bind(ConnectorProperties.class, "strimzi.namespace",
			"cdc", "strimzi.name", "orders-cdc");

	@TempDir
	Path directory;

	@AfterEach
	void stop() {
		this.api.close();
	}

	private ExtensionCheck check(Map<String, Object> connectSpec) throws IOException {
		this.api.createConnect("cdc", "cdc-connect", null, connectSpec);
		this.api.createConnector("cdc", "orders-cdc", Map.of("strimzi.io/cluster", "cdc-connect"),
				Map.of("class", "io.debezium.connector.postgresql.PostgresConnector"));
		ConnectorClient client = StrimziConnectorApiTests.client(this.directory, this.api.url(),
				StrimziStatusFrom.RESOURCE);
		return client.api(this.connector).extension(this.connector);
	}

	private static Map<String, Object> build(Map<String, Object>... artifacts) {
		return Map.of("build",
				Map.of("plugins", List.of(Map.of("name", "debezium-postgres", "artifacts", List.of(artifacts)))));
	}

	@Test
	@SuppressWarnings("unchecked")
	void anArtifactOfTheExtensionInTheBuildIsInstalled() throws IOException {
		ExtensionCheck check = check(build(DEBEZIUM, Map.of("type", "jar", "url",
				"https://example.com/slot-keeper-debezium-extension-0.1.0.jar", "sha512sum", "ab")));

		assertThat(check.installed()).isTrue();
		assertThat(check.detail()).contains("KafkaConnect cdc/cdc-connect");
	}

	@Test
	@SuppressWarnings("unchecked")
	void aBuildWithoutItIsAbsent() throws IOException {
		assertThat(check(build(DEBEZIUM)).absent()).isTrue();
	}

	@Test
	void anImageOfTheUsersOwnCannotBeTold() throws IOException {
		ExtensionCheck check = check(Map.of("image", "registry.example.com/connect:1"));

		assertThat(check.installed()).isNull();
		assertThat(check.detail()).contains("no spec.build");
	}

}
