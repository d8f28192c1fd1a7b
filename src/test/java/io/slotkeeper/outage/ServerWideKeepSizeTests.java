package io.slotkeeper.outage;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;

import io.slotkeeper.SlotKeeperApplication;
import io.slotkeeper.audit.AuditEntry;
import io.slotkeeper.audit.AuditJournal;
import io.slotkeeper.fleet.Fleet;
import io.slotkeeper.fleet.Instance;
import io.slotkeeper.fleet.Rendezvous;
import io.slotkeeper.settings.SettingFinding;
import io.slotkeeper.testbed.LogicalConsumer;
import io.slotkeeper.testbed.PostgresServer;
import io.slotkeeper.testbed.PostgresTestBed;
import io.slotkeeper.watching.SlotWatch;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The WAL-limit raise is the server's: two targets of one server that both opt in to
 * {@code on-outage} are weighed together (the value is put back only when every slot of
 * the server can live with it), and the raise is recorded in the database, so that the
 * instance that takes a target over from its owner puts back what the other raised.
 */
class ServerWideKeepSizeTests {

	private static PostgresServer server;

	private final List<ConfigurableApplicationContext> instances = new ArrayList<>();

	@BeforeAll
	static void start() {
		server = PostgresTestBed.dedicated(Map.of());
		for (String database : List.of("orders", "billing")) {
			server.execute("postgres", "CREATE DATABASE " + database);
			server.execute(database, "CREATE TABLE churn (id bigserial PRIMARY KEY, pad text)",
					"CREATE PUBLICATION cdc FOR TABLE churn",
					"SELECT pg_create_logical_replication_slot('" + database + "_cdc', 'pgoutput')");
		}
	}

	@AfterEach
	void stopTheInstancesAndResetTheSetting() {
		this.instances.forEach(ConfigurableApplicationContext::close);
		this.instances.clear();
		server.execute("postgres", "ALTER SYSTEM SET max_slot_wal_keep_size = '64MB'", "SELECT pg_reload_conf()");
		server.execute("billing", "DROP TABLE IF EXISTS slotkeeper.keep_size_raises");
		server.execute("orders", "DROP TABLE IF EXISTS slotkeeper.keep_size_raises");
	}

	@AfterAll
	static void stop() {
		if (server != null) {
			server.close();
		}
	}

	@Test
	void theRaiseOfOneTargetIsNotPutBackWhileAnotherTargetOfTheServerStillNeedsTheRoom() throws Exception {
		ConfigurableApplicationContext app = raisedOnceBothConsumersAreGone();
		List<AuditEntry> audited;
		try (LogicalConsumer back = new LogicalConsumer(server, "orders", "orders_cdc", "cdc", false)) {
			await("not put back while billing's consumer is gone").during(Duration.ofSeconds(8))
				.atMost(Duration.ofSeconds(10))
				.pollInterval(Duration.ofMillis(500))
				.until(() -> {
					churn();
					return "1GB".equals(keepSize());
				});
			assertThat(finding(app, "billing")).as("the server's finding on each of its targets")
				.isPresent()
				.isEqualTo(finding(app, "orders"));
			try (LogicalConsumer billingBack = new LogicalConsumer(server, "billing", "billing_cdc", "cdc", false)) {
				churnUntil("64MB", Duration.ofSeconds(90));
				// Read while the consumers still read: once they are closed, the guard
				// may rightly raise again.
				await().atMost(Duration.ofSeconds(5))
					.until(() -> audit(app).stream().anyMatch((entry) -> entry.detail().startsWith("put back")));
				audited = audit(app);
			}
		}
		assertThat(server.queryForString("postgres",
				"SELECT string_agg(wal_status, ',' ORDER BY slot_name)" + " FROM pg_replication_slots"))
			.as("no slot lost")
			.doesNotContain("lost");
		// Newest first: one put-back, after the raises (to billing's cap first when its
		// budget fell first).
		assertThat(audited).filteredOn((entry) -> "done".equals(entry.outcome()))
			.extracting(AuditEntry::detail)
			.startsWith("put back: ALTER SYSTEM SET max_slot_wal_keep_size = '64MB'")
			.filteredOn((detail) -> detail.startsWith("put back"))
			.hasSize(1);
	}

	@Test
	void theInstanceThatTakesTheServerOverPutsBackWhatTheOtherRaised() throws Exception {
		List<LogicalConsumer> consumers = consumersReading();
		ConfigurableApplicationContext first = start("first");
		ConfigurableApplicationContext second = start("second");
		// billing comes first by name: its owner acts for the server, and the raise is
		// recorded in its database. The
		// owner ends up being the instance rendezvous hashing prefers: wait for that, so
		// that no hand-over falls
		// within the raise.
		ConfigurableApplicationContext owner = (Rendezvous.score("billing", Instance.named("first").key()) > Rendezvous
			.score("billing", Instance.named("second").key())) ? first : second;
		await().atMost(Duration.ofSeconds(30))
			.until(() -> owns(owner, "billing") && !owns((owner == first) ? second : first, "billing"));
		ConfigurableApplicationContext other = (owner == first) ? second : first;
		for (LogicalConsumer consumer : consumers) {
			consumer.close();
		}
		churnUntil("1GB", Duration.ofSeconds(60));
		assertThat(audit(other)).as("only the lead target's owner acts for the server").isEmpty();
		assertThat(server.queryForString("billing", "SELECT from_mb || ' ' || to_mb FROM slotkeeper.keep_size_raises"))
			.isEqualTo("64 1024");

		owner.close();
		this.instances.remove(owner);
		await("the other instance owns the lead target").atMost(Duration.ofSeconds(30))
			.until(() -> owns(other, "billing"));
		List<AuditEntry> taken;
		String recorded;
		try (LogicalConsumer ordersBack = new LogicalConsumer(server, "orders", "orders_cdc", "cdc", false);
				LogicalConsumer billingBack = new LogicalConsumer(server, "billing", "billing_cdc", "cdc", false)) {
			churnUntil("64MB", Duration.ofSeconds(90));
			// Read while the consumers still read: once they are closed, the guard may
			// rightly raise again. The
			// put-back is audited once its record is gone, a moment after the value
			// shows.
			await().atMost(Duration.ofSeconds(5)).until(() -> !audit(other).isEmpty());
			taken = audit(other);
			recorded = server.queryForString("billing", "SELECT count(*) FROM slotkeeper.keep_size_raises");
		}
		assertThat(taken).singleElement()
			.extracting(AuditEntry::detail)
			.isEqualTo("put back: ALTER SYSTEM SET max_slot_wal_keep_size = '64MB'");
		assertThat(recorded).as("the raise forgotten once put back").isEqualTo("0");
	}

	// Seed 20261207 of the soak: while a switchover split two instances' view of the
	// server, the owner of a target that is not the lead raised the limit through it and
	// recorded the raise in that target's database; the lead's owner had looked there
	// once and never again, and the raise stayed in force.
	@Test
	void aRaiseRecordedThroughAnotherTargetOfTheServerIsFoundByTheLeadAndPutBack() throws Exception {
		ConfigurableApplicationContext app = raisedOnceBothConsumersAreGone();
		String raised = "SELECT server || '|' || restore || '|' || slots FROM slotkeeper.keep_size_raises";
		String[] record = server.queryForString("billing", raised).split("\\|");

		// As the other instance would have written it through orders, raising to 1000MB.
		server.execute("orders", "CREATE SCHEMA IF NOT EXISTS slotkeeper",
				"CREATE TABLE slotkeeper.keep_size_raises (" + KeepSizeRecords.COLUMNS + ")",
				"INSERT INTO slotkeeper.keep_size_raises VALUES ('" + record[0] + "', 64, '"
						+ record[1].replace("'", "''") + "', 1000, '" + record[2]
						+ "', now(), clock_timestamp() + interval '2 seconds', NULL)");
		server.execute("billing", "DELETE FROM slotkeeper.keep_size_raises");
		server.execute("postgres", "ALTER SYSTEM SET max_slot_wal_keep_size = '1000MB'", "SELECT pg_reload_conf()");

		try (LogicalConsumer ordersBack = new LogicalConsumer(server, "orders", "orders_cdc", "cdc", false);
				LogicalConsumer billingBack = new LogicalConsumer(server, "billing", "billing_cdc", "cdc", false)) {
			churnUntil("64MB", Duration.ofSeconds(90));
			await().atMost(Duration.ofSeconds(5))
				.until(() -> audit(app).stream().anyMatch((entry) -> entry.detail().startsWith("put back")));
		}
		assertThat(server.queryForString("orders", "SELECT count(*) FROM slotkeeper.keep_size_raises"))
			.as("moved to the lead's database")
			.isEqualTo("0");
	}

	// Two targets of one server, each with an opted-in slot; the lower cap of billing's
	// is never the one set.
	private ConfigurableApplicationContext start(String instance) {
		List<String> arguments = new ArrayList<>(List.of("--server.port=0", "--management.server.port=0",
				"--slotkeeper.instance-id=" + instance, "--logging.level.root=WARN"));
		String[][] targets = { { "orders", "1GB" }, { "billing", "512MB" } };
		for (int i = 0; i < targets.length; i++) {
			String prefix = "--slotkeeper.targets[" + i + "].";
			arguments.addAll(List.of(prefix + "name=" + targets[i][0], prefix + "url=" + server.jdbcUrl(targets[i][0]),
					prefix + "username=" + server.user(), prefix + "slots-poll-interval=200ms",
					prefix + "heartbeat.interval=500ms", prefix + "slots[0].name=" + targets[i][0] + "_cdc",
					prefix + "slots[0].on-outage.raise-keep-size-to=" + targets[i][1],
					prefix + "slots[0].on-outage.when-budget-below=1h"));
		}
		ConfigurableApplicationContext app = new SpringApplicationBuilder(SlotKeeperApplication.class)
			.run(arguments.toArray(String[]::new));
		this.instances.add(app);
		return app;
	}

	private static boolean owns(ConfigurableApplicationContext app, String target) {
		return app.getBean(Fleet.class).get(target).ownership().owned();
	}

	// One instance owning both targets raises the limit once both consumers are gone.
	private ConfigurableApplicationContext raisedOnceBothConsumersAreGone() throws Exception {
		List<LogicalConsumer> consumers = consumersReading();
		ConfigurableApplicationContext app = start("solo");
		await().atMost(Duration.ofSeconds(30)).until(() -> owns(app, "orders") && owns(app, "billing"));
		for (LogicalConsumer consumer : consumers) {
			consumer.close();
		}
		churnUntil("1GB", Duration.ofSeconds(60));
		return app;
	}

	// Each slot read by a real consumer, against a limit of 64MB.
	private static List<LogicalConsumer> consumersReading() throws Exception {
		server.execute("postgres", "ALTER SYSTEM SET max_slot_wal_keep_size = '64MB'", "SELECT pg_reload_conf()");
		return List.of(new LogicalConsumer(server, "orders", "orders_cdc", "cdc", false),
				new LogicalConsumer(server, "billing", "billing_cdc", "cdc", false));
	}

	// WAL runs on until the limit is the value.
	private static void churnUntil(String value, Duration atMost) {
		await().atMost(atMost).pollInterval(Duration.ofMillis(200)).until(() -> {
			churn();
			return value.equals(keepSize());
		});
	}

	// About 1 MB of WAL per call and database, in the slots' publications: a consumer
	// that reads confirms it.
	private static void churn() {
		for (String database : List.of("orders", "billing")) {
			server.execute(database, "INSERT INTO churn (pad) SELECT repeat('x', 500) FROM generate_series(1, 2000)");
		}
	}

	private static String keepSize() {
		return server.queryForString("postgres", "SHOW max_slot_wal_keep_size");
	}

	private static Optional<String> finding(ConfigurableApplicationContext app, String target) {
		return app.getBean(SlotWatch.class)
			.settings()
			.of(target)
			.flatMap((view) -> view.findings()
				.stream()
				.filter((finding) -> finding.setting().equals(KeepSizeGuard.SETTING))
				.map(SettingFinding::message)
				.findFirst());
	}

	private static List<AuditEntry> audit(ConfigurableApplicationContext app) {
		return app.getBean(AuditJournal.class)
			.entries()
			.stream()
			.filter((entry) -> entry.action().equals(KeepSizeGuard.ACTION))
			.toList();
	}

}
