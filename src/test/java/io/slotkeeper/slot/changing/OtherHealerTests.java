package io.slotkeeper.slot.changing;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicReference;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import org.springframework.web.client.RestClient;

import io.slotkeeper.connect.ConnectorClient;
import io.slotkeeper.fleet.Target;
import io.slotkeeper.sessions.Lsn;
import io.slotkeeper.testbed.ConnectStub;
import io.slotkeeper.testbed.PostgresServer;
import io.slotkeeper.testbed.SlotRecipes;

import static io.slotkeeper.testbed.TestTargets.fleet;
import static io.slotkeeper.testbed.TestTargets.target;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Another healer (Patroni recreating its permanent slots, an operator) makes a lost slot
 * anew while slot-keeper's recreate waits on Kafka Connect to stop the connector:
 * slot-keeper does not drop that slot, creates none, and hands the connector over to it.
 */
class OtherHealerTests {

	private static final String DATABASE = "healers";

	private static final PostgresServer server = SlotRecipes.lossyServer(DATABASE);

	private final ConnectStub connect = new ConnectStub();

	@AfterEach
	void stop() {
		this.connect.close();
	}

	@Test
	void aLostSlotMadeAnewByAnotherHealerWhileTheConnectorStopsIsNotDroppedAgainAndTheConnectorIsAlignedToIt() {
		server.execute(DATABASE, "SELECT pg_create_logical_replication_slot('patroni_kept', 'pgoutput')");
		SlotRecipes.lose(server, DATABASE, "patroni_kept");
		AtomicReference<String> madeByOther = new AtomicReference<>();
		// A create after this one would start later: the comment writes WAL after the
		// other healer's slot.
		this.connect.onStop(() -> {
			server.execute(DATABASE, "SELECT pg_drop_replication_slot('patroni_kept')",
					"SELECT pg_create_logical_replication_slot('patroni_kept', 'pgoutput')",
					"COMMENT ON DATABASE " + DATABASE + " IS 'made by the other healer'");
			madeByOther.set(server.queryForString(DATABASE, "SELECT confirmed_flush_lsn::text FROM"
					+ " pg_replication_slots WHERE slot_name = 'patroni_kept'"));
		});
		Target target = fleet(target("healers", server, DATABASE, "slots[0].name", "patroni_kept",
				"slots[0].connector.url", this.connect.url(), "slots[0].connector.name", "orders-cdc",
				"slots[0].connector.running-timeout", "2s"))
			.get("healers");
		SlotService slots = new SlotService(
				new ConnectorClient(RestClient.builder(), Duration.ofMillis(10), java.time.Clock.systemUTC()),
				new SimpleMeterRegistry(), java.time.Clock.systemUTC());

		RecreateResult result = slots.recreates().recreate(target, null, "patroni_kept", false, null);

		String other = madeByOther.get();
		assertThat(result.skipped().note()).contains("made anew by another session").contains("not dropped again");
		assertThat(result.newSlot().slot().confirmedFlushLsn()).isEqualTo(other);
		assertThat(server.queryForString(DATABASE,
				"SELECT confirmed_flush_lsn::text FROM pg_replication_slots" + " WHERE slot_name = 'patroni_kept'"))
			.isEqualTo(other);
		assertThat(server.queryForString(DATABASE,
				"SELECT wal_status FROM pg_replication_slots" + " WHERE slot_name = 'patroni_kept'"))
			.isEqualTo("reserved");
		assertThat(this.connect.changes()).extracting(ConnectStub.Request::path)
			.contains("/connectors/orders-cdc/stop", "/connectors/orders-cdc/offsets", "/connectors/orders-cdc/resume");
		assertThat(this.connect.offsets()).contains("\"lsn\":" + Lsn.parse(other));
		target.close();
	}

}
