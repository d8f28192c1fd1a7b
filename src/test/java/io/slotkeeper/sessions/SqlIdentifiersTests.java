package io.slotkeeper.sessions;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

class SqlIdentifiersTests {

	@Test
	void quotesTableAndSchemaQualifiedTable() {
		assertThat(SqlIdentifiers.quoteQualified("beats")).as("in public: sessions search only pg_catalog")
			.isEqualTo("\"public\".\"beats\"");
		assertThat(SqlIdentifiers.quoteQualified("public.slotkeeper_heartbeat"))
			.isEqualTo("\"public\".\"slotkeeper_heartbeat\"");
	}

	@ParameterizedTest
	@ValueSource(strings = { "", "a.b.c", "Beats", "x\"; DROP TABLE t; --", "public.", ".t", "1table", "a b" })
	void refusesAnythingButPlainLowerCaseIdentifiers(String name) {
		assertThatIllegalArgumentException().isThrownBy(() -> SqlIdentifiers.quoteQualified(name));
	}

	@Test
	void quotesSlotNamesIncludingOnesThatStartWithADigit() {
		assertThat(SqlIdentifiers.quoteSlot("debezium")).isEqualTo("\"debezium\"");
		assertThat(SqlIdentifiers.quoteSlot("1slot")).isEqualTo("\"1slot\"");
	}

	@ParameterizedTest
	@ValueSource(strings = { "", "Slot", "a\" ( FAILOVER false ) --", "slot name",
			"a234567890123456789012345678901234567890123456789012345678901234" })
	void refusesSlotNamesThatCouldNotHaveBeenCreated(String name) {
		assertThatIllegalArgumentException().isThrownBy(() -> SqlIdentifiers.quoteSlot(name));
	}

}
