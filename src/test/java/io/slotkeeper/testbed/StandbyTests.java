package io.slotkeeper.testbed;

import java.time.Duration;
import java.util.Map;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

class StandbyTests {

	@Test
	void standbyStreamsThePrimarysChanges() {
		try (PostgresServer primary = PostgresTestBed.dedicated(Map.of())) {
			assumeTrue(primary.supportsFaults(), "the embedded backend builds standbys");
			primary.execute("postgres", "CREATE TABLE t (v int)", "INSERT INTO t VALUES (1)");
			try (PostgresServer standby = primary.standby()) {
				assertThat(standby.queryForString("postgres", "SELECT pg_is_in_recovery()")).isEqualTo("t");
				primary.execute("postgres", "INSERT INTO t VALUES (2)");
				await().atMost(Duration.ofSeconds(10))
					.until(() -> "2".equals(standby.queryForString("postgres", "SELECT count(*) FROM t")));
			}
		}
	}

}
