package io.slotkeeper;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicReference;

import com.jayway.jsonpath.JsonPath;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.test.web.servlet.client.RestTestClient;

import io.slotkeeper.security.TokenHashes;
import io.slotkeeper.sessions.Lsn;
import io.slotkeeper.testbed.ConnectStub;
import io.slotkeeper.testbed.CountingConsumer;
import io.slotkeeper.testbed.PostgresServer;
import io.slotkeeper.testbed.PostgresTestBed;
import io.slotkeeper.testbed.RowWriter;
import io.slotkeeper.testbed.TcpProxy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The failover scenarios of issue 11 on real PostgreSQL 17 servers: a primary and a
 * streaming standby that synchronizes failover slots, a forwarder playing the Service
 * that is pointed at the new primary after a clean switchover, a real logical consumer
 * that counts the rows it received, and the whole application watching. Each scenario
 * prints its timings.
 */
class FailoverScenariosTests {

	private static final String VIEWER = "scenario-viewer-token";

	private static final String OPERATOR = "scenario-operator-token";

	private static final Duration POLL = Duration.ofSeconds(1);

	@Test
	void aFailoverSlotSurvivesACleanSwitchoverAndItsConsumerMissesNoRow() throws Exception {
		try (PostgresServer primary = PostgresTestBed.dedicated(Map.of());
				PostgresServer standby = primary.slotSyncingStandby();
				TcpProxy service = new TcpProxy(primary.host(), primary.port())) {
			prepare(primary, "cdc", true);
			waitForStandbySlots(primary);
			try (ConfigurableApplicationContext app = start(service, primary, standby.jdbcUrl("postgres"), "cdc");
					CountingConsumer consumer = consumer(service, primary, "cdc");
					RowWriter writer = new RowWriter(url(service), primary.user())) {
				RestTestClient client = client(app);
				long started = System.nanoTime();
				primary.execute("postgres", "CHECKPOINT");
				await().atMost(Duration.ofSeconds(90))
					.until(() -> Boolean.TRUE.equals(slot(client, "cdc", "failoverReady")));
				long ready = System.nanoTime();
				await().atMost(Duration.ofSeconds(20)).until(() -> consumer.received().size() >= 100);
				long switched = switchOver(primary, standby, service);
				long noticed = awaitAudit(client, "target.failover");
				Long firstAfter = await().atMost(Duration.ofSeconds(20))
					.until(() -> writer.firstCommittedAfter(switched), (id) -> id != null);
				await().atMost(Duration.ofSeconds(30)).until(() -> consumer.arrivedAt(firstAfter) != null);
				long usable = consumer.arrivedAt(firstAfter);
				await().atMost(Duration.ofSeconds(20)).until(() -> writer.committedAfter(switched) >= 100);
				writer.close();
				Set<Long> missing = awaitMissing(writer, consumer);
				report("1 failover slot", ready - started, switched, noticed, usable, missing, writer);
				assertThat(missing).as("rows the consumer never received").isEmpty();
				assertThat(standby.queryForString("postgres", "SELECT temporary::text || failover::text FROM"
						+ " pg_replication_slots WHERE slot_name = 'cdc'"))
					.isEqualTo("falsetrue");
				String confirmed = confirmedOn(standby, "cdc");
				await("heartbeats, confirmed by the consumer, move the slot").atMost(Duration.ofSeconds(10))
					.until(() -> !confirmedOn(standby, "cdc").equals(confirmed));
				client.get()
					.uri("/api/v1/targets/orders")
					.exchange()
					.expectBody()
					.jsonPath("$.timeline")
					.isEqualTo(2)
					.jsonPath("$.lastFailoverAt")
					.exists();
			}
		}
	}

	@Test
	void aSlotWithoutFailoverIsReportedNotReadyThenMissingAndRecreatedWithItsConnectorResumed() throws Exception {
		try (PostgresServer primary = PostgresTestBed.dedicated(Map.of());
				PostgresServer standby = primary.slotSyncingStandby();
				TcpProxy service = new TcpProxy(primary.host(), primary.port());
				ConnectStub connect = new ConnectStub()) {
			prepare(primary, "plain", false);
			try (ConfigurableApplicationContext app = start(service, primary, standby.jdbcUrl("postgres"), "plain",
					"--slotkeeper.targets[0].slots[0].on-missing=recreate",
					"--slotkeeper.targets[0].slots[0].connector.url=" + connect.url(),
					"--slotkeeper.targets[0].slots[0].connector.name=orders-cdc");
					CountingConsumer consumer = consumer(service, primary, "plain");
					RowWriter writer = new RowWriter(url(service), primary.user())) {
				RestTestClient client = client(app);
				await().atMost(Duration.ofSeconds(10))
					.until(() -> "r1: failover disabled".equals(slot(client, "plain", "failoverReason")));
				assertThat(slot(client, "plain", "failoverReady")).isEqualTo(false);
				await().atMost(Duration.ofSeconds(20)).until(() -> consumer.received().size() >= 50);
				long switched = switchOver(primary, standby, service);
				long noticed = awaitAudit(client, "target.failover");
				await().atMost(Duration.ofSeconds(15))
					.until(() -> connect.changes()
						.stream()
						.anyMatch((request) -> request.path().equals("/connectors/orders-cdc/resume")));
				long restarted = System.nanoTime();
				assertThat(Duration.ofNanos(restarted - switched)).as("recreated and resumed within a poll + 2 s")
					.isLessThanOrEqualTo(POLL.plusSeconds(2));
				awaitAudit(client, "slot.heal");
				// The new slot's position when it was made: its consumer may have
				// confirmed more since.
				AtomicReference<String> created = new AtomicReference<>();
				client.get()
					.uri("/api/v1/audit")
					.exchange()
					.expectBody()
					.jsonPath("$[?(@.action == 'slot.heal')].lsns.skippedTo")
					.value((to) -> created.set(((List<?>) to).get(0).toString()));
				assertThat(connect.offsets()).as("its offsets point at the new slot")
					.contains("\"lsn\":" + Lsn.parse(created.get()));
				client.get()
					.uri("/api/v1/audit")
					.exchange()
					.expectBody()
					.jsonPath("$[?(@.action == 'slot.heal')].parameters.onMissing")
					.isEqualTo(List.of("recreate"))
					.jsonPath("$[?(@.action == 'slot.heal')].detail")
					.value((details) -> assertThat(details.toString()).contains("unknown start"));
				Long firstAfter = await().atMost(Duration.ofSeconds(20))
					.until(() -> writer.firstCommittedAfter(restarted), (id) -> id != null);
				await().atMost(Duration.ofSeconds(30)).until(() -> consumer.arrivedAt(firstAfter) != null);
				long usable = consumer.arrivedAt(firstAfter);
				await().atMost(Duration.ofSeconds(20)).until(() -> writer.committedAfter(restarted) >= 50);
				writer.close();
				Set<Long> missing = awaitMissing(writer, consumer);
				report("2 slot without failover", 0, switched, noticed, usable, missing, writer);
				System.out.printf("scenario 2: slot recreated and its connector resumed on it %d ms after the switch%n",
						millis(restarted - switched));
				assertThat(missing).as("only rows written while the slot was missing are missed")
					.allMatch((id) -> id < firstAfter);
			}
		}
	}

	@Test
	void aStaleSynchronizedStandbySlotsEntryStallsTheConsumerAndIsNamed() throws Exception {
		try (PostgresServer primary = PostgresTestBed.dedicated(Map.of());
				PostgresServer standby = primary.slotSyncingStandby();
				TcpProxy service = new TcpProxy(primary.host(), primary.port())) {
			prepare(primary, "stalled", true);
			primary.execute("postgres", "SELECT pg_create_physical_replication_slot('gone_standby')",
					"ALTER SYSTEM SET synchronized_standby_slots = 'gone_standby'", "SELECT pg_reload_conf()");
			try (ConfigurableApplicationContext app = start(service, primary, standby.jdbcUrl("postgres"), "stalled");
					CountingConsumer consumer = consumer(service, primary, "stalled");
					RowWriter writer = new RowWriter(url(service), primary.user())) {
				RestTestClient client = client(app);
				long stale = System.nanoTime();
				await().atMost(Duration.ofSeconds(10))
					.until(() -> String.valueOf(slot(client, "stalled", "failoverReason"))
						.startsWith(
								"primary: synchronized_standby_slots names gone_standby, not an active, valid physical slot"));
				long named = System.nanoTime();
				await().during(Duration.ofSeconds(3))
					.atMost(Duration.ofSeconds(5))
					.until(() -> consumer.received().isEmpty());
				assertThat(writer.committed()).as("rows were written meanwhile").isNotEmpty();
				primary.execute("postgres",
						"ALTER SYSTEM SET synchronized_standby_slots = 'standby_" + primary.port() + "'",
						"SELECT pg_reload_conf()");
				long fixed = System.nanoTime();
				await().atMost(Duration.ofSeconds(20)).until(() -> !consumer.received().isEmpty());
				long resumed = System.nanoTime();
				writer.close();
				Set<Long> missing = awaitMissing(writer, consumer);
				System.out.printf("scenario 3 stale synchronized_standby_slots: named %d ms after the stale entry; "
						+ "consumer stalled (0 rows) with %d rows written; resumed %d ms after the fix; %d rows missing%n",
						millis(named - stale), writer.committed().size(), millis(resumed - fixed), missing.size());
				assertThat(missing).isEmpty();
			}
		}
	}

	@ParameterizedTest(name = "on-orphan: {0}")
	@ValueSource(strings = { "alert", "drop" })
	void theOldPrimaryRejoiningWithItsLeftoverCopyShowsAnOrphanWhoseDropLetsSynchronizationResume(String onOrphan)
			throws Exception {
		try (PostgresServer primary = PostgresTestBed.dedicated(Map.of());
				PostgresServer standby = primary.slotSyncingStandby();
				TcpProxy service = new TcpProxy(primary.host(), primary.port());
				TcpProxy replicaService = new TcpProxy(standby.host(), standby.port())) {
			prepare(primary, "cdc", true);
			primary.execute("postgres", "CHECKPOINT",
					"SELECT pg_replication_slot_advance('cdc', pg_current_wal_lsn())");
			await().atMost(Duration.ofSeconds(60)).until(() -> "true".equals(syncedPermanently(standby, "cdc")));
			try (ConfigurableApplicationContext app = start(service, primary,
					"jdbc:postgresql://127.0.0.1:" + replicaService.port() + "/postgres", "cdc",
					"--slotkeeper.targets[0].slots[0].on-orphan=" + onOrphan)) {
				RestTestClient client = client(app);
				long switched = switchOver(primary, standby, service);
				primary.rejoinAsStandbyOf(standby);
				replicaService.retarget(primary.host(), primary.port());
				replicaService.closeConnections();
				long rejoined = System.nanoTime();
				long orphaned;
				if (onOrphan.equals("alert")) {
					await().atMost(Duration.ofSeconds(15))
						.until(() -> Boolean.TRUE.equals(replicaSlot(client, "cdc", "orphan")));
					orphaned = System.nanoTime();
					assertThat(String.valueOf(slot(client, "cdc", "failoverReason")))
						.startsWith("r1: orphan on standby");
					// The gauge is set after the reading the API answers from is
					// published.
					await().atMost(Duration.ofSeconds(5))
						.untilAsserted(() -> assertThat(prometheus(client))
							.contains("slotkeeper_slot_orphan{node=\"r1\",slot=\"cdc\",target=\"orders\"} 1.0"));
					client.get()
						.uri("/actuator/health/failover")
						.exchange()
						.expectBody()
						.jsonPath("$.components.orders.details.orphans.r1")
						.isEqualTo(List.of("cdc"));
					operator(client).delete()
						.uri("/api/v1/targets/orders/slots/cdc?node=r1&dryRun=true")
						.exchange()
						.expectStatus()
						.isOk()
						.expectBody()
						.jsonPath("$.steps")
						.isEqualTo(List.of("drop slot cdc"));
					assertThat(syncedPermanently(primary, "cdc")).as("a dry run changes nothing").isEqualTo("false");
					operator(client).delete()
						.uri("/api/v1/targets/orders/slots/cdc?node=r1")
						.exchange()
						.expectStatus()
						.isNoContent();
				}
				else {
					awaitAudit(client, "slot.heal");
					orphaned = System.nanoTime();
					client.get()
						.uri("/api/v1/audit")
						.exchange()
						.expectBody()
						.jsonPath("$[?(@.action == 'slot.heal')].parameters.onOrphan")
						.isEqualTo(List.of("drop"));
				}
				long dropped = System.nanoTime();
				// The copy the standby now makes stays temporary until the new primary's
				// slot moves.
				await().atMost(Duration.ofSeconds(60)).until(() -> {
					standby.execute("postgres", "CHECKPOINT",
							"SELECT pg_replication_slot_advance('cdc', pg_current_wal_lsn())");
					return "true".equals(syncedPermanently(primary, "cdc"));
				});
				long synced = System.nanoTime();
				await().atMost(Duration.ofSeconds(10))
					.until(() -> Boolean.TRUE.equals(slot(client, "cdc", "failoverReady")));
				System.out.printf(
						"scenario 4 orphan (on-orphan: %s): rejoined %d ms after the switch; orphan %s %d ms"
								+ " after the rejoin; synchronized again (synced, permanent) %d ms after the drop%n",
						onOrphan, millis(rejoined - switched), onOrphan.equals("alert") ? "reported" : "dropped",
						millis(orphaned - rejoined), millis(synced - dropped));
				// The gauge follows the polls: the one after the resync says 0.
				await().atMost(Duration.ofSeconds(10))
					.untilAsserted(() -> assertThat(prometheus(client))
						.contains("slotkeeper_slot_orphan{node=\"r1\",slot=\"cdc\",target=\"orders\"} 0.0"));
			}
		}
	}

	private static void prepare(PostgresServer primary, String slot, boolean failover) {
		primary.execute("postgres", "CREATE TABLE orders (id bigint PRIMARY KEY)",
				"CREATE PUBLICATION pub FOR TABLE orders", "SELECT pg_create_logical_replication_slot('" + slot
						+ "', 'pgoutput', false, false, " + failover + ")");
	}

	// Consumers of failover slots then never get ahead of the standby: what they
	// confirmed survives a switch.
	private static void waitForStandbySlots(PostgresServer primary) {
		primary.execute("postgres", "ALTER SYSTEM SET synchronized_standby_slots = 'standby_" + primary.port() + "'",
				"SELECT pg_reload_conf()");
	}

	// The facts page's clean switchover, then the Service points at the new primary and
	// drops what it carried.
	private static long switchOver(PostgresServer primary, PostgresServer standby, TcpProxy service)
			throws java.io.IOException {
		primary.execute("postgres", "CHECKPOINT");
		primary.stop();
		standby.promote();
		service.retarget(standby.host(), standby.port());
		service.closeConnections();
		return System.nanoTime();
	}

	private static ConfigurableApplicationContext start(TcpProxy service, PostgresServer primary, String replicaUrl,
			String slot, String... more) {
		List<String> args = new ArrayList<>(List.of("--server.port=0", "--slotkeeper.targets[0].name=orders",
				"--slotkeeper.targets[0].url=" + url(service), "--slotkeeper.targets[0].username=" + primary.user(),
				"--slotkeeper.targets[0].heartbeat.interval=200ms",
				"--slotkeeper.targets[0].heartbeat.backoff.min=200ms",
				"--slotkeeper.targets[0].heartbeat.backoff.max=500ms",
				"--slotkeeper.targets[0].slots-poll-interval=" + POLL.toMillis() + "ms",
				"--slotkeeper.targets[0].replicas[0].name=r1", "--slotkeeper.targets[0].replicas[0].url=" + replicaUrl,
				"--slotkeeper.targets[0].replicas[0].username=" + primary.user(),
				"--slotkeeper.targets[0].slots[0].name=" + slot, "--slotkeeper.api.tokens[0].name=dashboard",
				"--slotkeeper.api.tokens[0].role=viewer",
				"--slotkeeper.api.tokens[0].sha256=" + TokenHashes.sha256Hex(VIEWER),
				"--slotkeeper.api.tokens[1].name=ci", "--slotkeeper.api.tokens[1].role=operator",
				"--slotkeeper.api.tokens[1].sha256=" + TokenHashes.sha256Hex(OPERATOR)));
		args.addAll(List.of(more));
		return new SpringApplicationBuilder(SlotKeeperApplication.class).run(args.toArray(String[]::new));
	}

	private static String url(TcpProxy service) {
		return "jdbc:postgresql://127.0.0.1:" + service.port() + "/postgres";
	}

	private static CountingConsumer consumer(TcpProxy service, PostgresServer primary, String slot) {
		return new CountingConsumer(url(service), primary.user(), slot, "pub");
	}

	private static RestTestClient client(ConfigurableApplicationContext app) {
		return RestTestClient.bindToServer()
			.baseUrl("http://localhost:" + app.getEnvironment().getProperty("local.server.port"))
			.defaultHeader("Authorization", "Bearer " + VIEWER)
			.build();
	}

	private static RestTestClient operator(RestTestClient viewer) {
		return viewer.mutate().defaultHeader("Authorization", "Bearer " + OPERATOR).build();
	}

	private static Object slot(RestTestClient client, String slot, String field) {
		return field(client, "/api/v1/targets/orders/slots", slot, field);
	}

	private static Object replicaSlot(RestTestClient client, String slot, String field) {
		return field(client, "/api/v1/targets/orders/slots?node=r1", slot, field);
	}

	private static Object field(RestTestClient client, String uri, String slot, String field) {
		var answer = client.get().uri(uri).exchange().expectBody(String.class).returnResult();
		// A node that is restarting answers 503 for a moment: nothing to read yet.
		if (answer.getStatus().value() != 200) {
			return null;
		}
		List<Object> values = JsonPath.read(answer.getResponseBody(), "$[?(@.slotName == '" + slot + "')]." + field);
		return values.isEmpty() ? null : values.get(0);
	}

	private static String prometheus(RestTestClient client) {
		return new String(client.get()
			.uri("/actuator/prometheus")
			.exchange()
			.expectBody()
			.returnResult()
			.getResponseBodyContent());
	}

	private static long awaitAudit(RestTestClient client, String action) {
		await().atMost(Duration.ofSeconds(15))
			.pollInterval(Duration.ofMillis(50))
			.until(() -> !client.get()
				.uri("/api/v1/audit")
				.exchange()
				.expectBody(List.class)
				.returnResult()
				.getResponseBody()
				.stream()
				.filter((entry) -> action.equals(((Map<?, ?>) entry).get("action")))
				.toList()
				.isEmpty());
		return System.nanoTime();
	}

	// Rows arrive in commit order: once the last one written is there, whatever is not
	// never will be.
	private static Set<Long> awaitMissing(RowWriter writer, CountingConsumer consumer) {
		Long last = writer.committed().stream().max(Long::compare).orElseThrow();
		await().atMost(Duration.ofSeconds(30)).until(() -> consumer.arrivedAt(last) != null);
		Set<Long> missing = new HashSet<>(writer.committed());
		missing.removeAll(consumer.received());
		return missing;
	}

	private static String syncedPermanently(PostgresServer server, String slot) {
		return server.queryForString("postgres", "SELECT (synced AND NOT temporary)::text FROM pg_replication_slots"
				+ " WHERE slot_name = '" + slot + "'");
	}

	private static String confirmedOn(PostgresServer server, String slot) {
		return server.queryForString("postgres",
				"SELECT confirmed_flush_lsn::text FROM pg_replication_slots WHERE slot_name = '" + slot + "'");
	}

	private static void report(String scenario, long readyNanos, long switched, long noticed, long usable,
			Set<Long> missing, RowWriter writer) {
		System.out.printf(
				"scenario %s: %sfailover noticed %d ms after the switch; slot usable (first row written"
						+ " after the switch received) %d ms after it; %d of %d rows missing%n",
				scenario, (readyNanos > 0) ? "ready " + millis(readyNanos) + " ms after a checkpoint; " : "",
				millis(noticed - switched), millis(usable - switched), missing.size(), writer.committed().size());
	}

	private static long millis(long nanos) {
		return nanos / 1_000_000;
	}

}
