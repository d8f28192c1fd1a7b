package io.slotkeeper.lineage;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import io.slotkeeper.testbed.PostgresServer;
import io.slotkeeper.testbed.PostgresTestBed;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The table counters of a database of 20,000 tables, on a real server: past the cap
 * nothing is kept and the reason is said; under it, readings kept share one copy of each
 * table's name. Prints what nine readings take.
 */
class TableCountersTests {

	private static final int TABLES = 20_000;

	private static PostgresServer server;

	@BeforeAll
	static void manyTables() {
		server = PostgresTestBed.dedicated(Map.of("max_locks_per_transaction", "256"));
		server.execute("postgres", "CREATE DATABASE wide");
		server.execute("wide", "DO $$ BEGIN FOR i IN 1.." + TABLES + " LOOP EXECUTE format('CREATE TABLE t%s (id int)',"
				+ " i); IF i % 1000 = 0 THEN COMMIT; END IF; END LOOP; END $$");
	}

	@AfterAll
	static void stop() {
		server.close();
	}

	private static Connection connect() throws SQLException {
		return DriverManager.getConnection(server.jdbcUrl("wide"), server.user(),
				(server.password() != null) ? server.password() : "");
	}

	@Test
	void aDatabaseWithMoreTablesThanTheCapIsNotSampledAndSaysWhy() throws SQLException {
		TableCounters counters = new TableCounters();
		try (Connection connection = connect()) {
			counters.sample(connection, List.of("cdc"), null);
			assertThat(connection.getAutoCommit()).as("the session as it was").isTrue();
		}
		assertThat(counters.before(Long.MAX_VALUE)).isEmpty();
		assertThat(counters.notSampledBecause()).startsWith("the database has more than 10000 tables");
		try (Connection connection = connect()) {
			counters.sample(connection, List.of("cdc"), List.of("public.t1", "public.t2"));
		}
		assertThat(counters.notSampledBecause()).as("its listed tables are sampled").isNull();
		assertThat(counters.before(Long.MAX_VALUE).orElseThrow().counts()).containsOnlyKeys("public.t1", "public.t2");
	}

	@Test
	void readingsKeptShareOneCopyOfEachNameAndWhatNineTakeIsPrinted() throws SQLException {
		TableCounters counters = new TableCounters();
		long before = used();
		try (Connection connection = connect()) {
			for (int i = 0; i < 9; i++) {
				counters.sample(connection, List.of("cdc"), null, TABLES);
			}
		}
		long after = used();
		List<TableWrites> kept = counters.kept();
		assertThat(kept.size()).isEqualTo(9);
		assertThat(kept.get(0).counts().size()).isEqualTo(TABLES);
		String name = kept.get(0).counts().keySet().iterator().next();
		String same = kept.get(1).counts().keySet().stream().filter(name::equals).findFirst().orElseThrow();
		assertThat(same).as("one copy of the name in every reading").isSameAs(name);
		assertThat(kept.get(1).counts().get(name)).as("one copy of a table's unchanged counters")
			.isSameAs(kept.get(0).counts().get(name));
		System.out.printf("table counters of %d tables: %d readings kept take about %.1f MB of heap%n", TABLES,
				kept.size(), (after - before) / 1048576.0);
	}

	private static long used() {
		Runtime runtime = Runtime.getRuntime();
		for (int i = 0; i < 3; i++) {
			System.gc();
		}
		return runtime.totalMemory() - runtime.freeMemory();
	}

}
