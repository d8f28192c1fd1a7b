package io.slotkeeper.discovery;

import java.util.Map;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import io.slotkeeper.config.ConnectorDiscoveryProperties;
import io.slotkeeper.config.ConnectorProperties;
import io.slotkeeper.config.OnFailed;
import io.slotkeeper.config.OnLost;
import io.slotkeeper.config.SlotPolicyProperties;
import io.slotkeeper.connect.FoundConnector;
import io.slotkeeper.fleet.Fleet;

import static io.slotkeeper.testbed.TestTargets.bind;
import static io.slotkeeper.testbed.TestTargets.fleet;
import static io.slotkeeper.testbed.TestTargets.target;
import static org.assertj.core.api.Assertions.assertThat;

class FoundPolicyTests {

	private final Fleet fleet = fleet(target("app", "jdbc:postgresql://postgres/app"));

	private static final FoundConnector FOUND = new FoundConnector("strimzi team-a",
			bind(ConnectorProperties.class, "strimzi.namespace", "team-a", "strimzi.name", "cdc"),
			Map.of("connector.class", "io.debezium.connector.postgresql.PostgresConnector", "slot.name", "cdc_slot"),
			"RUNNING");

	@AfterEach
	void close() {
		this.fleet.close();
	}

	@Test
	void aFoundConnectorIsRestartedWhenFailedOnlyWhenDiscoverySaysSo() {
		SlotPolicyProperties byDefault = FoundPolicy.of(FOUND, this.fleet.get("app"),
				bind(ConnectorDiscoveryProperties.class, "strimzi-namespaces", "team-a"));
		assertThat(byDefault.onFailed()).isEqualTo(OnFailed.ALERT);
		SlotPolicyProperties restarting = FoundPolicy.of(FOUND, this.fleet.get("app"),
				bind(ConnectorDiscoveryProperties.class, "strimzi-namespaces", "team-a", "on-failed", "restart",
						"on-lost", "recreate"));
		assertThat(restarting)
			.extracting(SlotPolicyProperties::onFailed, SlotPolicyProperties::maxRestartsPerHour,
					SlotPolicyProperties::onLost)
			.containsExactly(OnFailed.RESTART, 6, OnLost.RECREATE);
	}

}
