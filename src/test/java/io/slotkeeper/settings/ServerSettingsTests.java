package io.slotkeeper.settings;

import java.sql.Connection;

import org.junit.jupiter.api.Test;

import io.slotkeeper.testbed.PostgresServer;
import io.slotkeeper.testbed.SlotRecipes;

import static org.assertj.core.api.Assertions.assertThat;

class ServerSettingsTests {

	// An invalidated physical slot holds back failover slots' consumers as much as a
	// missing one does.
	@Test
	void aPhysicalSlotInvalidatedForRemovedWalIsNotCountedAsAStandbysSlot() throws Exception {
		PostgresServer server = SlotRecipes.lossyServer("settings_slots");
		server.execute("postgres", "SELECT pg_create_physical_replication_slot('kept', true)",
				"SELECT pg_create_physical_replication_slot('invalidated', true)");
		SlotRecipes.lose(server, "settings_slots", "invalidated");
		server.execute("postgres", "SELECT pg_drop_replication_slot('kept')",
				"SELECT pg_create_physical_replication_slot('kept', true)");
		try (Connection connection = server.connect("postgres")) {
			assertThat(ServerSettings.read(connection).physicalSlots()).containsExactly("kept");
		}
	}

}
