package io.slotkeeper.discovery;

import java.util.Set;

import org.junit.jupiter.api.Test;

import io.slotkeeper.config.TargetProperties;

import static org.assertj.core.api.Assertions.assertThat;

class TargetNamesTests {

	@Test
	void aDatabaseNameBecomesAValidTargetNameAfterItsServers() {
		assertThat(TargetNames.of("rbac-db", "orders", Set.of())).isEqualTo("rbac-db-orders");
		assertThat(TargetNames.of("rbac-db", "Orders_2024 (old)", Set.of())).isEqualTo("rbac-db-orders-2024-old");
		assertThat(TargetNames.of("rbac-db", "_x_", Set.of())).isEqualTo("rbac-db-x");
	}

	@Test
	void aLongOrTakenNameIsShortenedWithAChecksumOfTheDatabasesOwnName() {
		String longName = TargetNames.of("rbac-db", "d".repeat(63), Set.of());
		assertThat(longName).hasSize(63).matches(TargetProperties.NAME_PATTERN).startsWith("rbac-db-ddd");
		String taken = TargetNames.of("rbac-db", "my_db", Set.of("rbac-db-my-db"));
		assertThat(taken).matches("rbac-db-my-db-[0-9a-f]{6}");
		assertThat(TargetNames.of("rbac-db", "my_db", Set.of("rbac-db-my-db"))).as("the same every time").isEqualTo(taken);
		assertThat(TargetNames.of("rbac-db", "my.db", Set.of("rbac-db-my-db"))).isNotEqualTo(taken);
	}

}
