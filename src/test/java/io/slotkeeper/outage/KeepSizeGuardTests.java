package io.slotkeeper.outage;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;

import io.slotkeeper.SlotKeeperApplication;
import io.slotkeeper.audit.AuditEntry;
import io.slotkeeper.audit.AuditJournal;
import io.slotkeeper.fleet.Fleet;
import io.slotkeeper.replication.ReplicationSlot;
import io.slotkeeper.replication.SlotBudget;
import io.slotkeeper.settings.ServerSettings;
import io.slotkeeper.settings.SettingFinding;
import io.slotkeeper.settings.SettingsView;
import io.slotkeeper.testbed.LogicalConsumer;
import io.slotkeeper.testbed.PostgresServer;
import io.slotkeeper.testbed.PostgresTestBed;
import io.slotkeeper.testbed.SlotRecipes;
import io.slotkeeper.watching.SlotWatch;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * {@code slots[n].on-outage}: a real consumer stops, the server's WAL runs on, the slot's
 * outage budget falls below the threshold, and slot-keeper raises
 * {@code max_slot_wal_keep_size} to the slot's cap — and puts it back when the consumer
 * reads again; a role that may not change the setting changes nothing and is told why.
 */
@Tag("pg-compat")
class KeepSizeGuardTests {

	private static PostgresServer server;

	private ConfigurableApplicationContext app;

	@BeforeAll
	static void start() {
		server = PostgresTestBed.dedicated(Map.of());
		server.execute("postgres", "CREATE DATABASE app", "CREATE ROLE keeper LOGIN REPLICATION");
		server.execute("app", "CREATE TABLE churn (id bigserial PRIMARY KEY, pad text)",
				"CREATE PUBLICATION cdc FOR TABLE churn",
				"SELECT pg_create_logical_replication_slot('guarded', 'pgoutput')");
	}

	@AfterEach
	void stopTheApplicationAndResetTheSetting() {
		if (this.app != null) {
			this.app.close();
		}
		server.execute("postgres", "ALTER SYSTEM SET max_slot_wal_keep_size = '64MB'", "SELECT pg_reload_conf()");
		server.execute("app", "DROP TABLE IF EXISTS slotkeeper.keep_size_raises");
	}

	@AfterAll
	static void stop() {
		if (server != null) {
			server.close();
		}
	}

	@Test
	void raisesTheKeepSizeToTheCapWhileTheConsumerIsGoneAndPutsItBackWhenItReadsAgain() throws Exception {
		Instant stopped = raisedOnceTheConsumerStops();
		SlotBudget budget = budget();
		System.out.printf("on-outage on PostgreSQL %d: raised to %s; budget %s%n", server.majorVersion(), keepSize(),
				budget);
		assertThat(budget.inactiveSince()).as("when the real consumer stopped")
			.isBetween(stopped.minusSeconds(2), Instant.now());
		// Audited a moment after the server shows the raise.
		await().atMost(Duration.ofSeconds(5)).untilAsserted(() -> assertThat(audit()).anySatisfy((entry) -> {
			assertThat(entry.outcome()).isEqualTo("done");
			assertThat(entry.slot()).isEqualTo("guarded");
			assertThat(entry.parameters()).containsEntry("from", "64MB").containsEntry("to", "1024MB");
			assertThat(entry.detail())
				.isEqualTo("raised; put back with: ALTER SYSTEM SET max_slot_wal_keep_size = '64MB'");
		}));
		await().atMost(Duration.ofSeconds(10)).until(() -> finding().isPresent());
		assertThat(finding().get().message()).startsWith("raised by slot-keeper from 64MB at ")
			.endsWith(" for guarded, whose consumer is gone (on-outage); put back when it reads again");

		try (LogicalConsumer back = new LogicalConsumer(server, "app", "guarded", "cdc", false)) {
			// Put back once the slot retains less than 80 % of 64MB.
			await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(500)).until(() -> {
				churnPastARecordOfTheRunningTransactions();
				return "64MB".equals(keepSize());
			});
			// Audited once the raise's record is gone, a moment after the value shows.
			await().atMost(Duration.ofSeconds(5))
				.untilAsserted(() -> assertThat(audit()).anySatisfy((entry) -> assertThat(entry.detail())
					.isEqualTo("put back: ALTER SYSTEM SET max_slot_wal_keep_size = '64MB'")));
			await().atMost(Duration.ofSeconds(10)).until(() -> finding().isEmpty());
		}
	}

	@Test
	void aLimitChangedByHandWhileRaisedIsLeftAsItIsInEitherDirection() throws Exception {
		raisedOnceTheConsumerStops();
		// Below the cap, while the consumer is still gone: not taken as room to raise
		// again.
		server.execute("postgres", "ALTER SYSTEM SET max_slot_wal_keep_size = '200MB'", "SELECT pg_reload_conf()");
		await().atMost(Duration.ofSeconds(10)).until(() -> refusals().size() == 1);
		assertThat(refusals()).singleElement()
			.extracting(AuditEntry::detail)
			.isEqualTo("max_slot_wal_keep_size is 200MB, not the 1024MB"
					+ " slot-keeper set: someone changed it since, so it is left as it is, neither raised again nor put back"
					+ " to 64MB until the consumers of [guarded] read again");
		for (int i = 0; i < 10; i++) {
			churn();
		}
		await("polls that see the low budget").during(Duration.ofSeconds(2))
			.atMost(Duration.ofSeconds(5))
			.until(() -> "200MB".equals(keepSize()));
		server.execute("postgres", "ALTER SYSTEM SET max_slot_wal_keep_size = '2GB'", "SELECT pg_reload_conf()");
		await().atMost(Duration.ofSeconds(10)).until(() -> refusals().size() == 2);
		assertThat(refusals()).extracting(AuditEntry::detail)
			.anySatisfy((detail) -> assertThat(detail)
				.startsWith("max_slot_wal_keep_size is 2048MB, not the 200MB an operator set before: someone changed it"
						+ " since, so it is left as it is"));
		try (LogicalConsumer back = new LogicalConsumer(server, "app", "guarded", "cdc", false)) {
			await().atMost(Duration.ofSeconds(30))
				.until(() -> audit().stream()
					.anyMatch((entry) -> entry.detail()
						.endsWith("stays at the 2048MB an operator set during the raise")));
			assertThat(keepSize()).isEqualTo("2GB");
			assertThat(audit()).noneMatch((entry) -> entry.detail().startsWith("put back"));
		}
	}

	// The smoke of 8 December: a poll's reading taken before a switchover was acted on
	// through a session on the new primary, which put the raise "back" there, dropped its
	// record and left it in force on the former primary. A reading the server no longer
	// shows is not acted on; here the limit changed by hand after the poll read it.
	@Test
	void aPollsReadingTheServerNoLongerShowsIsNotActedOn() throws Exception {
		raisedOnceTheConsumerStops();
		// A reading within a second of the raise may predate its reload and is not acted
		// on anyway: this one is read later.
		await().atMost(Duration.ofSeconds(10))
			.until(() -> audit().stream()
				.anyMatch((entry) -> entry.detail().startsWith("raised;")
						&& entry.at().plusSeconds(2).isBefore(Instant.now())));
		server.execute("postgres", "ALTER SYSTEM SET max_slot_wal_keep_size = '200MB'", "SELECT pg_reload_conf()");
		Fleet fleet = this.app.getBean(Fleet.class);
		ServerSettings readBefore = new ServerSettings(
				Map.of(KeepSizeGuard.SETTING, new ServerSettings.Setting("1024", "MB")), Instant.now(), 0, 1, 0,
				List.of(), 0);
		// As that poll read the slot: its consumer back, nothing retained.
		List<ReplicationSlot> slots = List.of(ReplicationSlot.builder()
			.slotName("guarded")
			.slotType("logical")
			.plugin("pgoutput")
			.database("app")
			.active(true)
			.walStatus("reserved")
			.retainedWalBytes(0L)
			.build());
		this.app.getBean(KeepSizeGuard.class)
			.guard(fleet.get("app"), fleet.all(), slots, readBefore, (target, slot) -> null);

		await().atMost(Duration.ofSeconds(10)).until(() -> !refusals().isEmpty());
		assertThat(refusals().get(refusals().size() - 1).detail()).startsWith("max_slot_wal_keep_size is 200MB");
		assertThat(keepSize()).isEqualTo("200MB");
		assertThat(audit()).noneMatch((entry) -> entry.detail().startsWith("put back"));
	}

	// Seed 5064 of the soak: a slot that no consumer reads and no policy protects kept
	// the raise in force after every
	// consumer read again, since the put-back waited for every slot of the server to fit
	// the old value, and the raise
	// had let that slot grow past it.
	@Test
	void aSlotNobodyReadsOrProtectsDoesNotHoldTheRaiseInForceOnceTheConsumersReadAgain() throws Exception {
		server.execute("app", "SELECT pg_create_logical_replication_slot('abandoned', 'test_decoding')");
		try {
			raisedOnceTheConsumerStops();
			while (retainedMegabytes("abandoned") < 60) {
				churn();
			}
			try (LogicalConsumer back = new LogicalConsumer(server, "app", "guarded", "cdc", false)) {
				await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(500)).until(() -> {
					churnPastARecordOfTheRunningTransactions();
					return "64MB".equals(keepSize());
				});
				await().atMost(Duration.ofSeconds(5))
					.untilAsserted(() -> assertThat(audit()).anySatisfy((entry) -> assertThat(entry.detail())
						.isEqualTo("put back: ALTER SYSTEM SET max_slot_wal_keep_size = '64MB';"
								+ " slots [abandoned] have no consumer and no on-outage policy and retain more than"
								+ " the 64MB may keep: the limit may invalidate them, as it would have without the"
								+ " raise")));
			}
		}
		finally {
			server.execute("app", "SELECT pg_drop_replication_slot('abandoned')");
		}
	}

	// While the raise stands and every consumer reads again, the polls say so, whatever
	// keeps the guard from acting:
	// here its lock, held by a session the way one whose client is gone holds it.
	@Test
	void aRaiseThatNoConsumerNeedsIsShownFromThePollsWithItsAgeAndWhatHoldsItsPutBack() throws Exception {
		raisedOnceTheConsumerStops();
		io.slotkeeper.fleet.Target target = this.app.getBean(io.slotkeeper.fleet.Fleet.class).get("app");
		long key = io.slotkeeper.sessions.AdvisoryLocks.keepSizeKey(KeepSizeServer.keyOf(target));
		try (java.sql.Connection holder = server.connect("app");
				LogicalConsumer back = new LogicalConsumer(server, "app", "guarded", "cdc", false)) {
			int pid = Integer.parseInt(query(holder, "SELECT pg_backend_pid()"));
			query(holder, "SELECT pg_advisory_lock(" + key + ")::text");
			await().atMost(Duration.ofSeconds(20)).pollInterval(Duration.ofMillis(200)).untilAsserted(() -> {
				churn();
				assertThat(finding()).hasValueSatisfying((finding) -> assertThat(finding.message())
					.contains("; no consumer has needed it for ")
					.contains("the put-back waits until the WAL-limit guard's lock in the database of target 'app'"
							+ " is free (held by pid " + pid + " ("));
			});
			io.slotkeeper.settings.RaisedLimit shown = this.app.getBean(io.slotkeeper.watching.SlotHealthReadOuts.class)
				.raisedLimit("app")
				.orElseThrow();
			assertThat(shown.slots()).containsExactly("guarded");
			assertThat(shown.toMegabytes()).isEqualTo(1024);
			assertThat(shown.unneededSince()).isBefore(Instant.now());
			assertThat(shown
				.overdue(shown.unneededSince().plus(io.slotkeeper.settings.RaisedLimit.OVERDUE).plusSeconds(1)))
				.isTrue();
			io.micrometer.core.instrument.MeterRegistry meters = this.app
				.getBean(io.micrometer.core.instrument.MeterRegistry.class);
			await().atMost(Duration.ofSeconds(5))
				.until(() -> meters.get("slotkeeper.server.keep.size.raise.unneeded")
					.tag("target", "app")
					.gauge()
					.value() >= 1);
			assertThat(meters.get("slotkeeper.server.keep.size.raise").tag("target", "app").gauge().value())
				.isGreaterThanOrEqualTo(
						meters.get("slotkeeper.server.keep.size.raise.unneeded").tag("target", "app").gauge().value());
			assertThat(keepSize()).as("nothing put back while the lock is held").isEqualTo("1GB");
			query(holder, "SELECT pg_advisory_unlock(" + key + ")::text");
			await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(500)).until(() -> {
				churnPastARecordOfTheRunningTransactions();
				return "64MB".equals(keepSize());
			});
			await().atMost(Duration.ofSeconds(5))
				.until(() -> meters.get("slotkeeper.server.keep.size.raise").tag("target", "app").gauge().value() == 0);
		}
	}

	private static String query(java.sql.Connection connection, String sql) throws java.sql.SQLException {
		try (java.sql.Statement statement = connection.createStatement();
				java.sql.ResultSet result = statement.executeQuery(sql)) {
			result.next();
			return result.getString(1);
		}
	}

	private static long retainedMegabytes(String slot) {
		return Long.parseLong(server.queryForString("postgres",
				"SELECT pg_catalog.pg_wal_lsn_diff("
						+ "pg_catalog.pg_current_wal_lsn(), restart_lsn)::bigint / (1024 * 1024) FROM"
						+ " pg_catalog.pg_replication_slots WHERE slot_name = '" + slot + "'"));
	}

	private List<AuditEntry> refusals() {
		return audit().stream().filter((entry) -> "refused".equals(entry.outcome())).toList();
	}

	@Test
	void aRoleThatMayNotAlterTheSettingChangesNothingAndIsToldWhy() {
		server.execute("postgres", "ALTER SYSTEM SET max_slot_wal_keep_size = '64MB'", "SELECT pg_reload_conf()");
		this.app = start("keeper");
		await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(200)).until(() -> {
			churn();
			return finding().map(SettingFinding::severity).filter(SettingFinding.CRITICAL::equals).isPresent();
		});
		String why = (server.majorVersion() >= 15)
				? "role keeper may not ALTER SYSTEM max_slot_wal_keep_size (GRANT ALTER SYSTEM ON PARAMETER"
						+ " max_slot_wal_keep_size TO keeper)"
				: "role keeper may not ALTER SYSTEM max_slot_wal_keep_size (before PostgreSQL 15 only a superuser may)";
		assertThat(finding().get().message())
			.isEqualTo("cannot be raised for the slots whose consumer is gone" + " (on-outage): " + why);
		assertThat(keepSize()).isEqualTo("64MB");
		assertThat(audit()).singleElement().satisfies((entry) -> {
			assertThat(entry.outcome()).isEqualTo("refused");
			assertThat(entry.status()).isEqualTo(403);
			assertThat(entry.detail()).isEqualTo(why);
		});
		if (server.majorVersion() >= 15) {
			// Granted what the refusal names, the same role raises it.
			// A parameter's privileges are the cluster's, a function's the database's.
			server.execute("postgres", "GRANT ALTER SYSTEM ON PARAMETER max_slot_wal_keep_size TO keeper");
			server.execute("app", "GRANT EXECUTE ON FUNCTION pg_reload_conf() TO keeper");
			try {
				await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(200)).until(() -> {
					churn();
					return "1GB".equals(keepSize());
				});
			}
			finally {
				server.execute("postgres", "REVOKE ALTER SYSTEM ON PARAMETER max_slot_wal_keep_size FROM keeper");
				server.execute("app", "REVOKE EXECUTE ON FUNCTION pg_reload_conf() FROM keeper");
			}
		}
	}

	// A real consumer reads the slot while slot-keeper starts, then stops; WAL runs on
	// until the limit is raised.
	private Instant raisedOnceTheConsumerStops() throws Exception {
		server.execute("postgres", "ALTER SYSTEM SET max_slot_wal_keep_size = '64MB'", "SELECT pg_reload_conf()");
		LogicalConsumer consumer = new LogicalConsumer(server, "app", "guarded", "cdc", false);
		this.app = start(server.user());
		await().atMost(Duration.ofSeconds(20)).until(() -> settings().isPresent());
		assertThat(budget()).as("no budget while a consumer reads").isNull();
		Instant stopped = Instant.now();
		consumer.close();
		await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(200)).until(() -> {
			churn();
			return "1GB".equals(keepSize());
		});
		return stopped;
	}

	private static ConfigurableApplicationContext start(String role) {
		String password = (server.password() != null && role.equals(server.user())) ? server.password() : "";
		return new SpringApplicationBuilder(SlotKeeperApplication.class).run("--server.port=0",
				"--management.server.port=0", "--slotkeeper.targets[0].name=app",
				"--slotkeeper.targets[0].url=" + server.jdbcUrl("app"), "--slotkeeper.targets[0].username=" + role,
				"--slotkeeper.targets[0].password=" + password, "--slotkeeper.targets[0].slots-poll-interval=200ms",
				"--slotkeeper.targets[0].heartbeat.interval=500ms", "--slotkeeper.targets[0].slots[0].name=guarded",
				"--slotkeeper.targets[0].slots[0].on-outage.raise-keep-size-to=1GB",
				"--slotkeeper.targets[0].slots[0].on-outage.when-budget-below=1h", "--logging.level.root=WARN");
	}

	// About 1 MB of WAL per call, so that the server's rate over the polls is high and a
	// 64 MB budget short.
	// A slot's restart_lsn moves only at a record of the running transactions.
	private static void churnPastARecordOfTheRunningTransactions() {
		churn();
		SlotRecipes.logRunningTransactions(server, "app");
	}

	private static void churn() {
		server.execute("app", "INSERT INTO churn (pad) SELECT repeat('x', 500) FROM generate_series(1, 2000)");
	}

	private static String keepSize() {
		return server.queryForString("postgres", "SHOW max_slot_wal_keep_size");
	}

	private SlotBudget budget() {
		return this.app.getBean(SlotWatch.class).insights().of("app", "guarded").budget();
	}

	private Optional<SettingsView> settings() {
		return this.app.getBean(SlotWatch.class).settings().of("app");
	}

	private Optional<SettingFinding> finding() {
		return settings().flatMap((view) -> view.findings()
			.stream()
			.filter((finding) -> finding.message().startsWith("raised by slot-keeper")
					|| finding.message().startsWith("cannot be raised"))
			.findFirst());
	}

	private List<AuditEntry> audit() {
		return this.app.getBean(AuditJournal.class)
			.entries()
			.stream()
			.filter((entry) -> entry.action().equals(KeepSizeGuard.ACTION))
			.toList();
	}

}
