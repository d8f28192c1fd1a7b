package io.slotkeeper.watching;

import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import org.springframework.boot.health.contributor.CompositeHealthContributor;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.web.client.RestClient;

import io.slotkeeper.audit.AuditEntry;
import io.slotkeeper.audit.AuditJournal;
import io.slotkeeper.audit.Auditor;
import io.slotkeeper.connect.ConnectorClient;
import io.slotkeeper.fleet.Fleet;
import io.slotkeeper.healing.Healing;
import io.slotkeeper.lanes.LaneWatch;
import io.slotkeeper.settings.RaisedLimit;
import io.slotkeeper.slot.changing.SlotService;
import io.slotkeeper.testbed.ConnectStub;
import io.slotkeeper.testbed.PostgresServer;
import io.slotkeeper.testbed.PostgresTestBed;

import static io.slotkeeper.testbed.TestTargets.fleet;
import static io.slotkeeper.testbed.TestTargets.target;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * A slot named in {@code slots[]} that the primary does not have (as after a failover to
 * a server that never had it) is reported — gauge, health, listing with what was last
 * seen — and, with {@code on-missing: recreate}, created again as last seen, its
 * connector resumed on it and the gap reported with an unknown start; on every version.
 */
@Tag("pg-compat")
class MissingSlotTests {

	private final PostgresServer server = PostgresTestBed.shared();

	private final SimpleMeterRegistry registry = new SimpleMeterRegistry();

	private final AuditJournal journal = new AuditJournal(50);

	// What healing says plays no part in a missing slot's health.
	private static final SlotHealthReadOuts NOTHING_FROM_HEALING = new SlotHealthReadOuts() {

		@Override
		public Map<String, String> healingStopped(String target) {
			return Map.of();
		}

		@Override
		public String healingBudgetInMemoryBecause(String target) {
			return null;
		}

		@Override
		public Map<String, String> gapJournals(String target) {
			return Map.of();
		}

		@Override
		public Map<String, String> gapDeliveries(String target) {
			return Map.of();
		}

		@Override
		public Optional<RaisedLimit> raisedLimit(String target) {
			return Optional.empty();
		}

	};

	private final ConnectorClient connectors = new ConnectorClient(RestClient.builder(), Duration.ofMillis(10),
			java.time.Clock.systemUTC());

	private final SlotWatch watch = new SlotWatch(this.connectors, Clock.systemUTC());

	private SlotPoller poller(Fleet fleet) {
		Clock clock = Clock.systemUTC();
		Healing healing = new Healing(new SlotService(this.connectors, this.registry, clock),
				new Auditor(this.journal, clock), this.registry, clock);
		return new SlotPoller(fleet, healing, this.watch, new LaneWatch(this.registry, clock), this.registry, clock);
	}

	private double missingGauge(String slot) {
		return this.registry.get("slotkeeper.slot.missing").tag("slot", slot).gauge().value();
	}

	@Test
	void aMissingSlotIsReportedWithWhatWasLastSeenOfIt() {
		String database = this.server.createDatabase();
		// Slot names are the server's, not the database's: each test has its own.
		String cdc = "cdc_" + database;
		this.server.execute(database, "SELECT pg_create_logical_replication_slot('" + cdc + "', 'pgoutput')");
		try (Fleet fleet = fleet(target("orders", this.server, database, "slots[0].name", cdc))) {
			SlotPoller poller = poller(fleet);
			poller.poll("orders");
			assertThat(missingGauge(cdc)).isZero();
			String confirmed = this.server.queryForString(database,
					"SELECT confirmed_flush_lsn FROM pg_replication_slots WHERE slot_name = '" + cdc + "'");
			this.server.execute(database, "SELECT pg_drop_replication_slot('" + cdc + "')");
			poller.poll("orders");
			assertThat(missingGauge(cdc)).isEqualTo(1);
			assertThat(poller.missing("orders")).containsExactly(cdc);
			Health health = ((HealthIndicator) ((CompositeHealthContributor) SlotHealth.of(fleet, poller,
					this.watch.connectors(), NOTHING_FROM_HEALING, Clock.systemUTC()))
				.getContributor("orders")).health();
			assertThat(health.getStatus().getCode()).isEqualTo("DOWN");
			assertThat(health.getDetails()).containsEntry("missing", List.of(cdc));
			assertThat(this.watch.sightings().missing("orders")).singleElement().satisfies((missing) -> {
				assertThat(missing.lastSeen().plugin()).isEqualTo("pgoutput");
				assertThat(missing.lastSeen().database()).isEqualTo(database);
				assertThat(missing.lastSeen().confirmedFlushLsn()).isEqualTo(confirmed);
				assertThat(missing.lastSeen().server())
					.isEqualTo(fleet.get("orders").primary().identity().address() + ":" + this.server.port());
			});
			assertThat(this.journal.entries()).as("on-missing: alert only reports").isEmpty();
		}
	}

	@Test
	void aMissingSlotIsCreatedAgainAsLastSeenAndItsConnectorResumedOnIt() {
		String database = this.server.createDatabase();
		String cdc = "cdc_" + database;
		this.server.execute(database, "SELECT pg_create_logical_replication_slot('" + cdc + "', 'pgoutput')");
		try (ConnectStub connect = new ConnectStub();
				Fleet fleet = fleet(
						target("orders", this.server, database, "slots[0].name", cdc, "slots[0].on-missing", "recreate",
								"slots[0].connector.url", connect.url(), "slots[0].connector.name", "orders-cdc"))) {
			fleet.get("orders").ownership().learnt(true);
			SlotPoller poller = poller(fleet);
			poller.poll("orders");
			this.server.execute(database, "SELECT pg_drop_replication_slot('" + cdc + "')");
			long dropped = System.nanoTime();
			poller.poll("orders");
			System.out.printf("missing slot created again and its connector resumed %d ms after it was dropped,"
					+ " within one poll%n", (System.nanoTime() - dropped) / 1_000_000);
			assertThat(this.server.queryForString(database,
					"SELECT plugin FROM pg_replication_slots WHERE slot_name = '" + cdc + "'"))
				.isEqualTo("pgoutput");
			assertThat(poller.missing("orders")).isEmpty();
			assertThat(missingGauge(cdc)).isZero();
			assertThat(connect.changes()).extracting(ConnectStub.Request::method, ConnectStub.Request::path)
				.as("stopped, offsets aligned to the new slot, resumed")
				.containsExactly(org.assertj.core.groups.Tuple.tuple("PUT", "/connectors/orders-cdc/stop"),
						org.assertj.core.groups.Tuple.tuple("PATCH", "/connectors/orders-cdc/offsets"),
						org.assertj.core.groups.Tuple.tuple("PUT", "/connectors/orders-cdc/resume"));
			assertThat(connect.offsets())
				.contains("\"lsn\":" + io.slotkeeper.sessions.Lsn.parse(this.server.queryForString(database,
						"SELECT confirmed_flush_lsn FROM pg_replication_slots WHERE slot_name = '" + cdc + "'")));
			assertThat(this.journal.entries()).extracting(AuditEntry::action)
				.as("the heal, audited before its handover")
				.containsExactly("slot.handover", "slot.heal");
			AuditEntry healed = this.journal.entries().get(1);
			assertThat(healed.parameters()).containsEntry("onMissing", "recreate");
			assertThat(healed.lsns()).containsKey("skippedFrom");
			assertThat(healed.detail()).startsWith("unknown start, from the last confirmed position seen");
			this.server.execute(database, "SELECT pg_drop_replication_slot('" + cdc + "')");
		}
	}

}
