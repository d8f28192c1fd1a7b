package io.slotkeeper.testbed;

import java.util.Map;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The test bed hands out the PostgreSQL version the build asked for, with logical
 * decoding on.
 */
@Tag("pg-compat")
@Tag("pg-each")
class PostgresTestBedTests {

	@Test
	void serverIsTheVersionTheBuildChoseWithLogicalDecoding() {
		String expected = System.getProperty("testbed.expected-pg-version");
		assumeTrue(expected != null && "embedded".equals(System.getProperty("testbed.backend", "embedded")),
				"the build names the embedded binaries' version");
		PostgresServer server = PostgresTestBed.shared();
		assertThat(server.majorVersion()).isEqualTo(Integer.parseInt(expected.substring(0, expected.indexOf('.'))));
		assertThat(server.queryForString("postgres", "SHOW wal_level")).isEqualTo("logical");
	}

	@Test
	void dedicatedServerStopsAndStartsOnTheSamePortKeepingItsData() {
		try (PostgresServer server = PostgresTestBed.dedicated(Map.of("max_slot_wal_keep_size", "1MB"))) {
			assumeTrue(server.supportsFaults(), "this backend cannot stop servers");
			String database = server.createDatabase();
			int port = server.port();
			server.stop();
			server.start();
			assertThat(server.port()).isEqualTo(port);
			assertThat(server.queryForString(database, "SELECT current_database()")).isEqualTo(database);
			assertThat(server.queryForString("postgres", "SHOW max_slot_wal_keep_size")).isEqualTo("1MB");
		}
	}

}
