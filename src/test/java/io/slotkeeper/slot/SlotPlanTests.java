package io.slotkeeper.slot;

import java.util.List;

import org.junit.jupiter.api.Test;

import io.slotkeeper.problem.ProblemException;
import io.slotkeeper.problem.ProblemKind;
import io.slotkeeper.slot.changing.ChangePlan;

import static org.assertj.core.api.Assertions.assertThat;

class SlotPlanTests {

	@Test
	void aDryRunThatWouldRunListsItsSteps() {
		SlotPlan plan = SlotPlan.of(new ChangePlan("slot.drop", "orders", "s", List.of("drop slot s"), null));
		assertThat(plan.dryRun()).isTrue();
		assertThat(plan.wouldBeRefused()).isFalse();
		assertThat(plan.steps()).containsExactly("drop slot s");
		assertThat(plan.refusal()).isNull();
	}

	@Test
	void aRefusedDryRunAnswersTheProblemTheRealCallWould() {
		SlotPlan plan = SlotPlan.of(new ChangePlan("slot.recreate", "orders", "s", List.of(),
				new ProblemException(ProblemKind.SLOT_NOT_INVALIDATED, "Slot 's' is reserved, not lost")));
		assertThat(plan.wouldBeRefused()).isTrue();
		assertThat(plan.steps()).isEmpty();
		assertThat(plan.refusal()).isEqualTo(new SlotPlan.Refusal(409, "urn:slotkeeper:problem:slot-not-invalidated",
				"Slot 's' is reserved, not lost"));
	}

}
