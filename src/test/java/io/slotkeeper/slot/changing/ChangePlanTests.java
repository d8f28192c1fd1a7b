package io.slotkeeper.slot.changing;

import java.util.List;

import org.junit.jupiter.api.Test;

import io.slotkeeper.problem.ProblemException;
import io.slotkeeper.problem.ProblemKind;

import static org.assertj.core.api.Assertions.assertThat;

class ChangePlanTests {

	@Test
	void aPlanThatRunsSummarisesItsStepsInOrder() {
		ChangePlan plan = new ChangePlan("slot.recreate", "orders", "s", List.of("terminate backend 7 holding slot s",
				"drop slot s", "create logical slot s with plugin pgoutput"), null);
		assertThat(plan.refused()).isFalse();
		assertThat(plan.summary())
			.isEqualTo("terminate backend 7 holding slot s; drop slot s; create logical slot s with plugin pgoutput");
	}

	@Test
	void aRefusedPlanSaysWhy() {
		ChangePlan plan = new ChangePlan("slot.drop", "orders", "s", List.of(),
				new ProblemException(ProblemKind.SLOT_ACTIVE, "Slot 's' is in use by backend 7"));
		assertThat(plan.refused()).isTrue();
		assertThat(plan.summary()).isEqualTo("would be refused: Slot 's' is in use by backend 7");
	}

	@Test
	void aSpecDescribesWhatItCreates() {
		assertThat(new SlotSpec("s", true, "pgoutput", true, true).describe())
			.isEqualTo("create logical slot s with plugin pgoutput, two_phase, failover");
		assertThat(new SlotSpec("p", false, null, false, false).describe())
			.isEqualTo("create physical slot p reserving WAL now");
	}

}
