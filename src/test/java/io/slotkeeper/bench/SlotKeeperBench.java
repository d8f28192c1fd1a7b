package io.slotkeeper.bench;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

import io.slotkeeper.testbed.PostgresServer;
import io.slotkeeper.testbed.PostgresTestBed;

/**
 * slot-keeper measured against the alternatives on embedded PostgreSQL, in one run:
 * {@code ./mvnw -Pbench test}. Writes {@code bench/results/RESULTS.md} and PNG charts.
 * Not part of the test run. Each section is a class of its own; this one orders them and
 * shares the server.
 */
@Tag("bench")
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class SlotKeeperBench {

	private static final Duration BUSY_WINDOW = Duration.ofMinutes(Long.getLong("bench.busy-minutes", 10));

	private static final Duration FLEET_WINDOW = Duration.ofSeconds(Long.getLong("bench.fleet-seconds", 120));

	private static final BenchReport report = new BenchReport();

	private static PostgresServer server;

	private static Path serverLog;

	private static final List<String> databases = new ArrayList<>();

	@BeforeAll
	static void startServer() {
		try {
			serverLog = Files.createTempDirectory("bench-pg-log");
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
		// The server's log in files of its own, so that the fleet run can count what the
		// server did to sessions.
		Map<String, String> settings = new java.util.HashMap<>(
				Map.of("max_connections", "2600", "max_replication_slots", "256", "max_slot_wal_keep_size", "-1",
						"logging_collector", "on", "log_directory", serverLog.toString()));
		if (Boolean.getBoolean("bench.fleet-run-diagnose")) {
			settings.put("shared_preload_libraries", "pg_stat_statements");
			settings.put("pg_stat_statements.track", "all");
		}
		server = PostgresTestBed.dedicated(settings);
		for (int i = 0; i < 100; i++) {
			databases.add(server.createDatabase());
		}
	}

	@AfterAll
	static void writeReport() {
		report.write(server.queryForString("postgres", "SHOW server_version"));
		server.close();
	}

	@Test
	@Order(1)
	void walCostOfOneHeartbeat() throws Exception {
		WalCostBench.run(report, server);
	}

	@Test
	@Order(2)
	void retainedWalUnderABusyNeighbour() throws Exception {
		RetainedWalBench.run(report, BUSY_WINDOW);
	}

	@Test
	@Order(3)
	void fleetScale() throws Exception {
		FleetBench.oneInstance(report, server, databases, FLEET_WINDOW);
		FleetBench.threeInstances(report, server, databases);
	}

	@Test
	@Order(4)
	void slotListingApi() throws Exception {
		ApiBench.run(report, server);
	}

	@Test
	@Order(5)
	void recoveryFromALostSlot() throws Exception {
		RecoveryBench.run(report);
	}

	@Test
	@Order(6)
	void startUpAndFootprint() throws Exception {
		StartUpBench.run(report, server, databases.subList(0, 10));
	}

	@Test
	@Order(7)
	void fleetRunByTheApplication() throws Exception {
		if (Boolean.getBoolean("bench.fleet-run-diagnose")) {
			server.execute("postgres", "CREATE EXTENSION IF NOT EXISTS pg_stat_statements");
		}
		FleetRunBench.run(report, server, serverLog, databases);
	}

	@Test
	@Order(8)
	void oneServerEntryAgainstATargetPerDatabase() throws Exception {
		ServerEntryBench.run(report);
	}

}
