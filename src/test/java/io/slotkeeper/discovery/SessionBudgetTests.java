package io.slotkeeper.discovery;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class SessionBudgetTests {

	@Test
	void aTenthOfTheConnectionsLeftToNonSuperusersAndNeverFewerThanTwo() {
		assertThat(SessionBudget.derived(100, 3)).isEqualTo(new SessionBudget(9, true));
		assertThat(SessionBudget.derived(1000, 10).databases()).isEqualTo(98);
		assertThat(SessionBudget.derived(12, 3).sessions()).isEqualTo(2);
	}

}
