package io.slotkeeper.connect;

import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A {@code KafkaConnector} as slot-keeper reads it: the fields it uses, each absent where
 * the resource has none or one of another shape.
 */
class KafkaConnectorResourceTests {

	@Test
	void theFieldsSlotKeeperUsesAreReadFromAResourceAsTheApiAnswersIt() {
		KafkaConnectorResource resource = KafkaConnectorResource.of(Map.of("metadata", Map.of("name", "orders",
				"labels", Map.of("strimzi.io/cluster", "connect"), "annotations", Map.of("strimzi.io/restart", "true")),
				"spec",
				Map.of("class", "io.debezium.connector.postgresql.PostgresConnector", "config",
						Map.of("slot.name", "cdc"), "state", "stopped", "autoRestart", Map.of("enabled", true)),
				"status",
				Map.of("connectorStatus", Map.of("connector", Map.of("state", "STOPPED")), "autoRestart",
						Map.of("count", 2), "conditions",
						List.of(Map.of("type", "NotReady", "reason", "ConnectTimeout", "message", "no answer")))));

		assertThat(resource.name()).isEqualTo("orders");
		assertThat(resource.labels()).containsEntry("strimzi.io/cluster", "connect");
		assertThat(resource.annotations()).containsKey("strimzi.io/restart");
		assertThat(resource.spec().connectorConfig()).containsEntry("slot.name", "cdc")
			.containsEntry("connector.class", "io.debezium.connector.postgresql.PostgresConnector");
		assertThat(resource.spec().state()).isEqualTo("stopped");
		assertThat(resource.spec().autoRestart()).isTrue();
		assertThat(resource.status().connectorState()).isEqualTo("STOPPED");
		assertThat(resource.status().autoRestarts()).isEqualTo(2);
		assertThat(resource.status().notReady()).contains("NotReady, ConnectTimeout: no answer");
	}

	@Test
	void aFieldMissingOrOfAnotherShapeReadsAsAbsent() {
		KafkaConnectorResource resource = KafkaConnectorResource.of(Map.of("metadata", "odd", "spec",
				Map.of("config", List.of("odd"), "autoRestart", "yes"), "status", Map.of("conditions", "odd")));

		assertThat(resource.name()).isNull();
		assertThat(resource.annotations()).isEmpty();
		assertThat(resource.spec().connectorConfig()).isEmpty();
		assertThat(resource.spec().state()).isNull();
		assertThat(resource.spec().autoRestart()).isFalse();
		assertThat(resource.status().connectorState()).isNull();
		assertThat(resource.status().autoRestarts()).isZero();
		assertThat(resource.status().notReady()).isEmpty();
	}

}
