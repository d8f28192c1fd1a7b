package io.slotkeeper.sessions;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

import static io.slotkeeper.testbed.TestTargets.fleet;
import static io.slotkeeper.testbed.TestTargets.target;
import static org.assertj.core.api.Assertions.assertThat;
import io.slotkeeper.fleet.Target;

class ServerChangeTests {

	private static final Instant STARTED = Instant.parse("2026-12-01T07:00:00Z");

	private static final ServerVersion V17 = new ServerVersion(170006, "17.6");

	private final Target target = fleet(target("orders", "jdbc:postgresql://db/orders", "replicas[0].name", "r1",
			"replicas[0].url", "jdbc:postgresql://r1/orders"))
		.get("orders");

	private final List<ServerChange> changes = new ArrayList<>();

	ServerChangeTests() {
		this.target.nodes().onServerChange(this.changes::add);
	}

	private static ServerIdentity server(String address, Instant started, long timeline, boolean standby) {
		return new ServerIdentity(address, 5432, started, timeline, "7300", standby);
	}

	@Test
	void theFirstAnswerAndTheSameServerAgainAreNoChange() {
		this.target.primary().answered(V17, server("10.0.0.5", STARTED, 1, false), java.time.Instant.now());
		this.target.primary().answered(V17, server("10.0.0.5", STARTED, 1, false), java.time.Instant.now());
		assertThat(this.changes).isEmpty();
		assertThat(this.target.nodes().lastFailover()).isEmpty();
	}

	@Test
	void anotherServerOrANewTimelineIsAFailoverOfThePrimary() {
		this.target.primary().answered(V17, server("10.0.0.5", STARTED, 1, false), java.time.Instant.now());
		this.target.primary()
			.answered(V17, server("10.0.0.6", STARTED.plusSeconds(60), 2, false), java.time.Instant.now());
		assertThat(this.changes).singleElement().satisfies((change) -> {
			assertThat(change.failover()).isTrue();
			assertThat(change.before().address()).isEqualTo("10.0.0.5");
			assertThat(change.after().timeline()).isEqualTo(2L);
			assertThat(change.describe()).contains("10.0.0.5:5432 (timeline 1")
				.contains("-> 10.0.0.6:5432 (timeline 2");
		});
		assertThat(this.target.nodes().lastFailover()).contains(this.changes.get(0));
		this.target.primary()
			.answered(V17, server("10.0.0.6", STARTED.plusSeconds(120), 3, false), java.time.Instant.now());
		assertThat(this.changes.get(1).failover()).as("same address, promoted again: timeline 3").isTrue();
	}

	@Test
	void aRestartOfTheSameServerIsAChangeButNoFailover() {
		this.target.primary().answered(V17, server("10.0.0.5", STARTED, 1, false), java.time.Instant.now());
		this.target.primary()
			.answered(V17, server("10.0.0.5", STARTED.plusSeconds(30), 1, false), java.time.Instant.now());
		assertThat(this.changes).singleElement().satisfies((change) -> assertThat(change.failover()).isFalse());
		assertThat(this.target.nodes().lastFailover()).isEmpty();
	}

	@Test
	void aReplicasChangeIsNoFailoverOfTheTarget() {
		this.target.nodes().named("r1").answered(V17, server("10.0.0.7", STARTED, 1, true), java.time.Instant.now());
		this.target.nodes().named("r1").answered(V17, server("10.0.0.8", STARTED, 1, true), java.time.Instant.now());
		assertThat(this.changes).singleElement()
			.satisfies((change) -> assertThat(change.node().name()).isEqualTo("r1"));
		assertThat(this.target.nodes().lastFailover()).isEmpty();
	}

}
