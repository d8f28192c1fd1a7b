package io.slotkeeper.slot.changing;

import java.util.Optional;

import org.junit.jupiter.api.Test;

import io.slotkeeper.fleet.Target;
import io.slotkeeper.problem.ProblemException;
import io.slotkeeper.problem.ProblemKind;
import io.slotkeeper.replication.ReplicationSlot;
import io.slotkeeper.sessions.Node;

import static io.slotkeeper.testbed.TestTargets.fleet;
import static io.slotkeeper.testbed.TestTargets.target;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.assertThatNoException;

class SlotRulesTests {

	private final Target target = fleet(target("orders", "jdbc:postgresql://db/orders", "username", "keeper",
			"replicas[0].name", "r1", "replicas[0].url", "jdbc:postgresql://r1/orders"))
		.get("orders");

	private final Node primary = this.target.primary();

	private static ReplicationSlot.Builder logical(String name) {
		return ReplicationSlot.builder()
			.slotName(name)
			.slotType("logical")
			.plugin("pgoutput")
			.database("orders")
			.active(false)
			.temporary(false)
			.walStatus("reserved");
	}

	@Test
	void anInactiveSlotNeedsNoSessionEnded() {
		assertThat(SlotRules.holderToEnd(this.primary, logical("s").build(), false)).isEmpty();
	}

	@Test
	void anActiveSlotIsRefusedWithItsHolderUnlessForced() {
		ReplicationSlot held = logical("s").active(true).activePid(4242).build();
		assertThatExceptionOfType(ProblemException.class)
			.isThrownBy(() -> SlotRules.holderToEnd(this.primary, held, false))
			.satisfies((refusal) -> {
				assertThat(refusal.kind()).isEqualTo(ProblemKind.SLOT_ACTIVE);
				assertThat(refusal.properties()).containsEntry("activePid", 4242)
					.containsEntry("slot", "s")
					.containsEntry("target", "orders")
					.doesNotContainKey("node");
			});
		assertThat(SlotRules.holderToEnd(this.primary, held, true)).hasValue(4242);
	}

	@Test
	void onlyALostSlotIsRecreatedWithoutForce() {
		assertThatExceptionOfType(ProblemException.class)
			.isThrownBy(() -> SlotRules.requireRecreatable(this.primary, logical("s").build(), "orders", false))
			.satisfies((refusal) -> assertThat(refusal.kind()).isEqualTo(ProblemKind.SLOT_NOT_INVALIDATED));
		assertThatNoException()
			.isThrownBy(() -> SlotRules.requireRecreatable(this.primary, logical("s").build(), "orders", true));
		assertThatNoException().isThrownBy(() -> SlotRules.requireRecreatable(this.primary,
				logical("s").walStatus("lost").build(), "orders", false));
		assertThatNoException().isThrownBy(() -> SlotRules.requireRecreatable(this.primary,
				logical("s").walStatus("unreserved").invalidationReason("wal_removed").build(), "orders", false));
	}

	@Test
	void aTemporarySlotOrAnotherDatabasesSlotIsNeverRecreated() {
		assertThatExceptionOfType(ProblemException.class)
			.isThrownBy(() -> SlotRules.requireRecreatable(this.primary,
					logical("s").walStatus("lost").temporary(true).build(), "orders", true))
			.satisfies((refusal) -> {
				assertThat(refusal.kind()).isEqualTo(ProblemKind.NOT_SUPPORTED);
				assertThat(refusal.getMessage()).contains("temporary");
			});
		assertThatExceptionOfType(ProblemException.class)
			.isThrownBy(() -> SlotRules.requireRecreatable(this.primary, logical("s").walStatus("lost").build(),
					"billing", false))
			.satisfies((refusal) -> assertThat(refusal.getMessage())
				.contains("belongs to database 'orders' but target 'orders' connects to 'billing'"));
		assertThatNoException().isThrownBy(() -> SlotRules.requireRecreatable(this.primary,
				ReplicationSlot.builder().slotName("p").slotType("physical").walStatus("lost").build(), "billing",
				false));
	}

	@Test
	void optionsTheServersVersionLacksAreRefusedNamingTheVersion() {
		SlotSpec twoPhase = new SlotSpec("s", true, "pgoutput", true, false);
		SlotSpec failover = new SlotSpec("s", true, "pgoutput", false, true);
		SlotSpec plain = new SlotSpec("s", true, "pgoutput", false, false);
		assertThatExceptionOfType(ProblemException.class)
			.isThrownBy(() -> SlotRules.requireSupported(this.primary, twoPhase, 13, false))
			.withMessage("twoPhase needs PostgreSQL 14 or later; this server is 13.");
		assertThatNoException().isThrownBy(() -> SlotRules.requireSupported(this.primary, twoPhase, 14, false));
		assertThatExceptionOfType(ProblemException.class)
			.isThrownBy(() -> SlotRules.requireSupported(this.primary, failover, 16, false))
			.withMessage("failover needs PostgreSQL 17 or later; this server is 16.");
		assertThatExceptionOfType(ProblemException.class)
			.isThrownBy(() -> SlotRules.requireSupported(this.target.nodes().named("r1"), plain, 15, true))
			.satisfies((refusal) -> {
				assertThat(refusal.kind()).isEqualTo(ProblemKind.NOT_SUPPORTED);
				assertThat(refusal.properties()).containsEntry("node", "r1").containsEntry("target", "orders");
			});
		assertThatNoException()
			.isThrownBy(() -> SlotRules.requireSupported(this.target.nodes().named("r1"), plain, 16, true));
		assertThatNoException().isThrownBy(
				() -> SlotRules.requireSupported(this.primary, new SlotSpec("p", false, null, false, false), 15, true));
	}

	@Test
	void aRoleWithoutReplicationIsRefusedWithTheAlterRoleToRun() {
		assertThatExceptionOfType(ProblemException.class)
			.isThrownBy(() -> SlotRules.requirePrivilege(this.primary, false))
			.satisfies((refusal) -> {
				assertThat(refusal.kind()).isEqualTo(ProblemKind.INSUFFICIENT_PRIVILEGE);
				assertThat(refusal.getMessage()).endsWith("ALTER ROLE keeper REPLICATION;");
				assertThat(refusal.properties()).containsEntry("sqlState", "42501");
			});
		assertThatNoException().isThrownBy(() -> SlotRules.requirePrivilege(this.primary, true));
	}

	@Test
	void creatingASlotThatExistsIsRefused() {
		assertThatExceptionOfType(ProblemException.class)
			.isThrownBy(() -> SlotRules.requireAbsent(this.primary, "s", Optional.of(logical("s").build())))
			.satisfies((refusal) -> assertThat(refusal.kind()).isEqualTo(ProblemKind.SLOT_EXISTS));
		assertThatNoException().isThrownBy(() -> SlotRules.requireAbsent(this.primary, "s", Optional.empty()));
	}

}
