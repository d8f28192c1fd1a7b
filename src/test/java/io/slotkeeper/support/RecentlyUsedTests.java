package io.slotkeeper.support;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

class RecentlyUsedTests {

	@Test
	void theLeastRecentlyUsedAnswerIsForgottenFirstWhenFull() {
		RecentlyUsed<String, Integer> recent = new RecentlyUsed<>(2);
		recent.put("a", 1);
		recent.put("b", 2);
		assertThat(recent.get("a")).isEqualTo(1);
		recent.put("c", 3);

		assertThat(recent.get("b")).as("least recently used").isNull();
		assertThat(recent.get("a")).isEqualTo(1);
		assertThat(recent.get("c")).isEqualTo(3);
		assertThat(recent.size()).isEqualTo(2);
	}

	@Test
	void anAnswerNoLongerGoodIsForgottenWhenAskedFor() {
		RecentlyUsed<String, Integer> recent = new RecentlyUsed<>(4);
		recent.put("expired", 1);
		recent.put("fresh", 2);

		assertThat(recent.getIf("expired", (value) -> value > 1)).isNull();
		assertThat(recent.getIf("fresh", (value) -> value > 1)).isEqualTo(2);
		assertThat(recent.size()).isEqualTo(1);
	}

	@Test
	void aMemoryOfNothingIsRefused() {
		assertThatIllegalArgumentException().isThrownBy(() -> new RecentlyUsed<String, String>(0))
			.withMessageContaining("capacity must be at least 1, not 0");
	}

}
