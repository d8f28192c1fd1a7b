package io.slotkeeper.heartbeat;

import java.time.Duration;
import java.util.Arrays;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import io.slotkeeper.config.TargetProperties;
import io.slotkeeper.testbed.PostgresServer;
import io.slotkeeper.testbed.PostgresTestBed;

import static io.slotkeeper.testbed.TestTargets.target;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Prints how long one heartbeat takes on loopback, per mode, over an open session. Not
 * part of the test run:
 * {@code ./mvnw test -Dtest=HeartbeatLatencyBenchmark -Dsurefire.excludedGroups=}.
 */
@Tag("benchmark")
class HeartbeatLatencyBenchmark {

	private static final int WARM_UP = 300;

	private static final int BEATS = 3000;

	@ParameterizedTest(name = "{0}")
	@CsvSource(delimiter = '|',
			value = { "message transactional | message | true | ''", "message non-transactional | message | false | ''",
					"table | table | true | ''", "query | query | true | UPDATE beats SET n = n + 1" })
	void heartbeatDurationOnLoopback(String label, String mode, String transactional, String query)
			throws InterruptedException {
		PostgresServer server = PostgresTestBed.shared();
		String database = server.createDatabase();
		server.execute(database, "CREATE TABLE beats (n int NOT NULL)", "INSERT INTO beats VALUES (0)");
		TargetProperties target = target("bench", server, database, "heartbeat.enabled", "false", "heartbeat.mode",
				mode, "heartbeat.transactional", transactional, "heartbeat.create-table", "true", "heartbeat.query",
				query.isEmpty() ? "SELECT 1" : query);
		try (HeartbeatEngine engine = HeartbeatEngine.started(target)) {
			TargetHeartbeat heartbeat = engine.target("bench");
			for (int i = 0; i < WARM_UP; i++) {
				assertThat(heartbeat.beatNow(Duration.ofSeconds(30)).succeeded()).isTrue();
			}
			long[] micros = new long[BEATS];
			for (int i = 0; i < BEATS; i++) {
				HeartbeatOutcome outcome = heartbeat.beatNow(Duration.ofSeconds(30));
				assertThat(outcome.succeeded()).isTrue();
				micros[i] = outcome.duration().toNanos() / 1000;
			}
			Arrays.sort(micros);
			System.out.printf("heartbeat %-26s PG %d, %d beats: p50 %d us, p90 %d us, p99 %d us, max %d us%n", label,
					server.majorVersion(), BEATS, micros[BEATS / 2], micros[BEATS * 9 / 10], micros[BEATS * 99 / 100],
					micros[BEATS - 1]);
			assertThat(Duration.ofNanos(micros[BEATS / 2] * 1000)).isPositive();
		}
	}

}
