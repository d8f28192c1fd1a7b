package io.slotkeeper.fleet;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;

import org.junit.jupiter.api.Test;

import io.slotkeeper.problem.ProblemException;
import io.slotkeeper.testbed.PostgresServer;
import io.slotkeeper.testbed.PostgresTestBed;
import io.slotkeeper.testbed.SilentServer;

import static io.slotkeeper.testbed.TestTargets.fleet;
import static io.slotkeeper.testbed.TestTargets.target;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.awaitility.Awaitility.await;

/**
 * Targets configured one by one on the databases of one server, as one role, read the
 * server's slots through one session per poll interval, as the databases of a configured
 * server do: a thousand targets over a hundred databases of one server would otherwise
 * hold a thousand polling sessions (issue #27).
 */
class ServerReadingTests {

	private final PostgresServer shared = PostgresTestBed.shared();

	@Test
	void targetsConfiguredOnOneServerShareOneReadingEachInItsOwnDatabase() {
		String first = this.shared.createDatabase();
		String second = this.shared.createDatabase();
		try (Fleet fleet = fleet(target("first", this.shared, first), target("second", this.shared, second))) {
			Seen byFirst = fleet.get("first").readServer(ServerReadingTests::seen, false);
			Seen bySecond = fleet.get("second").readServer(ServerReadingTests::seen, false);
			assertThat(bySecond).as("the second target's reading is the first one's").isEqualTo(byFirst);
			assertThat(byFirst.database()).isEqualTo(first);
			assertThat(fleet.get("second").database()).contains(second);
			assertThat(sessionsIn(second)).as("sessions the second target opened").isZero();
		}
	}

	@Test
	void theNextReadingGoesThroughTheSessionTheLastOneCameThrough() {
		String first = this.shared.createDatabase();
		String second = this.shared.createDatabase();
		try (Fleet fleet = fleet(target("first", this.shared, first, "slots-poll-interval", "200ms"),
				target("second", this.shared, second, "slots-poll-interval", "200ms"))) {
			Seen byFirst = fleet.get("first").readServer(ServerReadingTests::seen, false);
			Target other = fleet.get("second");
			Seen next = await().atMost(Duration.ofSeconds(10))
				.until(() -> other.readServer(ServerReadingTests::seen, false), (seen) -> seen.at() > byFirst.at());
			assertThat(next.pid()).as("the first target's session read again").isEqualTo(byFirst.pid());
			assertThat(sessionsIn(second)).as("sessions the second target opened").isZero();
		}
	}

	@Test
	void otherSettingsOrAFailedReadAreNotShared() {
		String one = this.shared.createDatabase();
		try (Fleet fleet = fleet(target("missing", this.shared, "no_such_database"),
				target("patient", this.shared, one, "connection.statement-timeout", "7s"),
				target("plain", this.shared, one))) {
			assertThatExceptionOfType(ProblemException.class)
				.isThrownBy(() -> fleet.get("missing").readServer(ServerReadingTests::seen, false));
			Seen plain = fleet.get("plain").readServer(ServerReadingTests::seen, false);
			assertThat(plain.database()).as("a failure is its own target's").isEqualTo(one);
			Seen patient = fleet.get("patient").readServer(ServerReadingTests::seen, false);
			assertThat(patient.pid()).as("other connection settings read through their own session")
				.isNotEqualTo(plain.pid());
		}
	}

	@Test
	void aTargetDoesNotWaitForAnotherTargetsReadOfAServerThatHangs() throws Exception {
		try (SilentServer silent = new SilentServer();
				Fleet fleet = fleet(hung("first", silent, "one"), hung("second", silent, "two"))) {
			CompletableFuture<Seen> first = CompletableFuture
				.supplyAsync(() -> fleet.get("first").readServer(ServerReadingTests::seen, false));
			await().atMost(Duration.ofSeconds(5)).until(() -> silent.accepted() >= 1);
			long start = System.nanoTime();
			assertThatExceptionOfType(ProblemException.class)
				.isThrownBy(() -> fleet.get("second").readServer(ServerReadingTests::seen, false));
			Duration took = Duration.ofNanos(System.nanoTime() - start);
			System.out.printf("a read while another target's read of a hung server was in flight failed after %d ms"
					+ " (connect timeout 2 s)%n", took.toMillis());
			assertThat(took).as("its own attempt, not the other one's and then its own")
				.isLessThan(Duration.ofMillis(3500));
			assertThat(first).failsWithin(Duration.ofSeconds(10));
		}
	}

	private static io.slotkeeper.config.TargetProperties hung(String name, SilentServer silent, String database) {
		return target(name, "jdbc:postgresql://127.0.0.1:" + silent.port() + "/" + database,
				"connection.connect-timeout", "2s");
	}

	private long sessionsIn(String database) {
		return Long.parseLong(this.shared.queryForString("postgres",
				"SELECT count(*) FROM pg_stat_activity WHERE datname = '" + database + "'"));
	}

	private record Seen(int pid, String database, long at) {
	}

	private static Seen seen(Connection connection) throws SQLException {
		try (Statement statement = connection.createStatement();
				ResultSet result = statement
					.executeQuery("SELECT pg_backend_pid(), current_database(), clock_timestamp()")) {
			result.next();
			return new Seen(result.getInt(1), result.getString(2), result.getTimestamp(3).getTime());
		}
	}

}
