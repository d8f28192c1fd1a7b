package io.slotkeeper.api;

import java.util.Arrays;
import java.util.EnumSet;

import org.junit.jupiter.api.Test;

import io.slotkeeper.problem.ProblemKind;

import static org.assertj.core.api.Assertions.assertThat;

class ProblemTypesTests {

	@Test
	void everyKindHasItsOwnTypeAndATitle() {
		assertThat(Arrays.stream(ProblemKind.values()).map((kind) -> ProblemTypes.of(kind).type()).distinct())
			.hasSize(ProblemKind.values().length);
		assertThat(ProblemKind.values()).allSatisfy((kind) -> {
			assertThat(ProblemTypes.of(kind).title()).isNotBlank();
			assertThat(ProblemTypes.of(kind).type().toString()).startsWith("urn:slotkeeper:problem:");
		});
	}

	@Test
	void refusalsAreClientErrorsAndFailuresAreServerErrors() {
		assertThat(EnumSet.allOf(ProblemKind.class))
			.allSatisfy((kind) -> assertThat(ProblemTypes.status(kind)).as("%s", kind)
				.isBetween(kind.refusal() ? 400 : 500, kind.refusal() ? 499 : 599));
	}

	@Test
	void theTypesOperatorsAlreadyAlertOnStayAsTheyWere() {
		assertThat(ProblemTypes.of(ProblemKind.TARGET_UNAVAILABLE).type().toString())
			.isEqualTo("urn:slotkeeper:problem:target-unavailable");
		assertThat(ProblemTypes.status(ProblemKind.TARGET_UNAVAILABLE)).isEqualTo(503);
		assertThat(ProblemTypes.status(ProblemKind.TARGET_TIMEOUT)).isEqualTo(504);
		assertThat(ProblemTypes.status(ProblemKind.INSUFFICIENT_PRIVILEGE)).isEqualTo(403);
		assertThat(ProblemTypes.status(ProblemKind.NOT_SUPPORTED)).isEqualTo(422);
		assertThat(ProblemTypes.of(ProblemKind.SLOT_ACTIVE).title()).isEqualTo("Slot in use");
	}

}
