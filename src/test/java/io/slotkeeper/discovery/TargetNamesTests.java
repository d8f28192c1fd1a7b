package io.slotkeeper.discovery;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

import org.junit.jupiter.api.Test;

import io.slotkeeper.config.TargetProperties;

import static org.assertj.core.api.Assertions.assertThat;

class TargetNamesTests {

	@Test
	void aDatabaseInPostgresPlainFormKeepsItsNameAfterItsServers() {
		assertThat(TargetNames.of("rbac-db", "orders")).isEqualTo("rbac-db-orders");
		assertThat(TargetNames.of("rbac-db", "orders_2024")).isEqualTo("rbac-db-orders-2024");
	}

	@Test
	void anyOtherNameIsFoldedAndEndsWithAChecksumOfTheDatabasesOwnName() {
		assertThat(TargetNames.of("rbac-db", "Orders_2024 (old)")).matches("rbac-db-orders-2024-old-[0-9a-f]{6}");
		assertThat(TargetNames.of("rbac-db", "_x_")).matches("rbac-db-x-[0-9a-f]{6}");
		assertThat(TargetNames.of("rbac-db", "my-db")).matches("rbac-db-my-db-[0-9a-f]{6}");
		String longName = TargetNames.of("rbac-db", "d".repeat(63));
		assertThat(longName).hasSize(63).matches(TargetProperties.NAME_PATTERN).startsWith("rbac-db-ddd");
	}

	@Test
	void namesThatFoldAlikeStayApartWhateverOrderTheDatabasesCameIn() {
		List<String> databases = List.of("orders", "Orders", "ORDERS", "or_ders", "or__ders", "or-ders", "or.ders",
				"my_db", "my-db", "My_Db");
		List<String> names = databases.stream().map((database) -> TargetNames.of("srv", database)).toList();
		assertThat(names).doesNotHaveDuplicates().allMatch((name) -> name.matches(TargetProperties.NAME_PATTERN));
		assertThat(names.get(0)).isEqualTo("srv-orders");
		List<String> again = new ArrayList<>(databases);
		Collections.reverse(again);
		assertThat(again.stream().map((database) -> TargetNames.of("srv", database)).toList())
			.as("a function of the database alone")
			.containsExactlyInAnyOrderElementsOf(names);
	}

}
