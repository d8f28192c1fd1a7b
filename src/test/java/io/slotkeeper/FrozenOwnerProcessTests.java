package io.slotkeeper;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;

import io.slotkeeper.sessions.AdvisoryLocks;
import io.slotkeeper.testbed.JavaCommand;
import io.slotkeeper.testbed.PostgresServer;
import io.slotkeeper.testbed.PostgresTestBed;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The owner is a slot-keeper process of its own, frozen with SIGSTOP as a pod whose node
 * stalls: its kernel keeps the connection (and answers TCP keepalives), so only the
 * server's {@code idle_session_timeout} frees the owner lock. The other instance, a whole
 * application here, must heartbeat again within that timeout plus one interval.
 */
class FrozenOwnerProcessTests {

	private static final String[] QUICK = { "--slotkeeper.targets[0].name=orders",
			"--slotkeeper.targets[0].heartbeat.interval=300ms",
			"--slotkeeper.targets[0].connection.statement-timeout=1s",
			"--slotkeeper.targets[0].connection.connect-timeout=1s",
			"--slotkeeper.targets[0].heartbeat.backoff.min=500ms",
			"--slotkeeper.targets[0].heartbeat.backoff.max=500ms" };

	private final PostgresServer server = PostgresTestBed.shared();

	@Test
	void aFrozenOwnerProcessHandsTheTargetOverWithinItsIdleSessionTimeout() throws Exception {
		String database = this.server.createDatabase();
		List<String> settings = new ArrayList<>(List.of(QUICK));
		settings.add("--slotkeeper.targets[0].url=" + this.server.jdbcUrl(database));
		settings.add("--slotkeeper.targets[0].username=" + this.server.user());
		Process owner = startOwner(settings);
		try {
			await().atMost(Duration.ofSeconds(60)).until(() -> ownerLockHolders(database) == 1);
			List<String> standby = new ArrayList<>(settings);
			standby.add("--server.port=0");
			try (ConfigurableApplicationContext other = new SpringApplicationBuilder(SlotKeeperApplication.class)
				.run(standby.toArray(String[]::new))) {
				OtherInstance heartbeats = new OtherInstance(other);
				await().atMost(Duration.ofSeconds(10)).until(() -> Boolean.FALSE.equals(heartbeats.owner()));
				assertThat(heartbeats.emissions()).as("the other instance stands by").isZero();
				signal(owner, "STOP");
				long frozen = System.nanoTime();
				// idle_session_timeout = 2 x 300 ms interval + 1 s statement timeout + 1
				// s; then one interval.
				await().atMost(Duration.ofMillis(2600 + 300 + 2000)).until(() -> heartbeats.emissions() >= 1);
				System.out.printf(
						"takeover: the other application heartbeat %d ms after the owner process was frozen"
								+ " with SIGSTOP (idle_session_timeout 2600 ms, interval 300 ms)%n",
						(System.nanoTime() - frozen) / 1_000_000);
				assertThat(heartbeats.owner()).isTrue();
			}
		}
		finally {
			signal(owner, "CONT");
			owner.destroy();
			owner.waitFor();
		}
	}

	private static Process startOwner(List<String> settings) throws IOException {
		List<String> command = JavaCommand.onTestClassPath();
		command.addAll(List.of(SlotKeeperApplication.class.getName(), "--server.port=0"));
		command.addAll(settings);
		File log = Files.createTempFile("frozen-owner", ".log").toFile();
		log.deleteOnExit();
		return new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log).start();
	}

	private static void signal(Process process, String signal) throws IOException, InterruptedException {
		new ProcessBuilder("kill", "-" + signal, Long.toString(process.pid())).inheritIO().start().waitFor();
	}

	private int ownerLockHolders(String database) {
		return Integer.parseInt(this.server.queryForString(database,
				"SELECT count(*) FROM pg_locks WHERE"
						+ " locktype = 'advisory' AND granted AND ((classid::bigint << 32) | objid::bigint) = "
						+ AdvisoryLocks.ownerKey("orders")));
	}

	/**
	 * The other application's heartbeat status for target {@code orders}.
	 */
	private record OtherInstance(ConfigurableApplicationContext context) {

		private io.slotkeeper.heartbeat.HeartbeatStatus status() {
			io.slotkeeper.heartbeat.Heartbeats all = this.context.getBean(io.slotkeeper.heartbeat.Heartbeats.class);
			return all.of(this.context.getBean(io.slotkeeper.fleet.Fleet.class).get("orders")).status();
		}

		Boolean owner() {
			return status().owner();
		}

		long emissions() {
			return status().emissions();
		}

	}

}
