package io.slotkeeper.fleet;

import java.time.Instant;

import org.junit.jupiter.api.Test;

import io.slotkeeper.problem.ProblemException;
import io.slotkeeper.problem.ProblemKind;

import static io.slotkeeper.testbed.TestTargets.fleet;
import static io.slotkeeper.testbed.TestTargets.target;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import io.slotkeeper.sessions.Node;
import io.slotkeeper.sessions.ServerIdentity;

class FleetTests {

	private final Fleet fleet = fleet(
			target("orders", "jdbc:postgresql://db/orders", "replicas[0].name", "r1", "replicas[0].url",
					"jdbc:postgresql://r1/orders", "slots[0].name", "debezium", "slots[0].connector.url",
					"http://connect:8083", "slots[0].connector.name", "orders-cdc", "slots[1].name", "plain"),
			target("billing", "jdbc:postgresql://db/billing"));

	@Test
	void targetsKeepTheirConfiguredOrderAndAnUnknownOneIsNamed() {
		assertThat(this.fleet.all()).extracting(Target::name).containsExactly("orders", "billing");
		assertThatExceptionOfType(ProblemException.class).isThrownBy(() -> this.fleet.get("nope"))
			.satisfies((problem) -> {
				assertThat(problem.kind()).isEqualTo(ProblemKind.TARGET_NOT_FOUND);
				assertThat(problem.getMessage()).contains("'nope'");
			});
	}

	@Test
	void aTargetHasItsPrimaryAndReplicasAsNodesOfItsOwnName() {
		Target orders = this.fleet.get("orders");
		assertThat(orders.nodes().named(null)).isSameAs(orders.primary()).isSameAs(orders.nodes().named("primary"));
		assertThat(orders.primary().primary()).isTrue();
		Node replica = orders.nodes().named("r1");
		assertThat(replica.target()).as("a replica belongs to its target, not to a made-up one").isEqualTo("orders");
		assertThat(replica.name()).isEqualTo("r1");
		assertThat(replica.primary()).isFalse();
		assertThat(replica.connectionProperties()).isEqualTo(orders.properties().connection());
		assertThat(orders.nodes().select(Target.ALL_NODES)).containsExactly(orders.primary(), replica);
		assertThat(orders.nodes().select("r1")).containsExactly(replica);
		assertThatExceptionOfType(ProblemException.class).isThrownBy(() -> orders.nodes().named("r9"))
			.satisfies((problem) -> assertThat(problem.kind()).isEqualTo(ProblemKind.NODE_NOT_FOUND));
	}

	@Test
	void aSlotsConnectorComesFromItsPolicy() {
		Target orders = this.fleet.get("orders");
		assertThat(orders.slots().connector("debezium").name()).isEqualTo("orders-cdc");
		assertThat(orders.slots().connectorOf("plain")).isEmpty();
		assertThatExceptionOfType(ProblemException.class).isThrownBy(() -> orders.slots().connector("plain"))
			.satisfies((problem) -> {
				assertThat(problem.kind()).isEqualTo(ProblemKind.CONNECTOR_NOT_CONFIGURED);
				assertThat(problem.properties()).containsEntry("slot", "plain");
			});
	}

	@Test
	void ownershipIsUnknownUntilLearntAndForgottenWithTheSession() {
		Ownership ownership = this.fleet.get("orders").ownership();
		assertThat(ownership.state()).isNull();
		assertThat(ownership.owned()).isFalse();
		ownership.learnt(true);
		assertThat(ownership.owned()).isTrue();
		ownership.forgotten();
		assertThat(ownership.state()).isNull();
	}

	@Test
	void theBeatLogKeepsTheLatestBeatsOldestFirst() {
		BeatLog beats = this.fleet.get("billing").beats();
		for (int i = 0; i < 300; i++) {
			beats.add(new BeatLog.Beat("0/" + Integer.toHexString(i), Instant.EPOCH.plusSeconds(i)));
		}
		assertThat(beats.list()).hasSize(256);
		assertThat(beats.list().get(0).lsn()).isEqualTo("0/" + Integer.toHexString(44));
	}

	@Test
	void anIdentityIsTheSameServerOnlyWithTheSameAddressPortAndStart() {
		Instant started = Instant.parse("2026-12-01T07:00:00Z");
		ServerIdentity primary = new ServerIdentity("10.0.0.5", 5432, started, 1L, "7300", false);
		assertThat(primary.sameServerAs(new ServerIdentity("10.0.0.5", 5432, started, 1L, "7300", false))).isTrue();
		assertThat(primary.sameServerAs(new ServerIdentity("10.0.0.6", 5432, started, 2L, "7300", false)))
			.as("a promoted standby shares the system identifier but not the address")
			.isFalse();
		assertThat(
				primary.sameServerAs(new ServerIdentity("10.0.0.5", 5432, started.plusSeconds(60), 1L, "7300", false)))
			.as("restarted")
			.isFalse();
		assertThat(primary.sameServerAs(null)).isFalse();
	}

}
