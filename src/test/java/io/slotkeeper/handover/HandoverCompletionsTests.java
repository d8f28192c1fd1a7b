package io.slotkeeper.handover;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.Test;

import org.springframework.web.client.RestClient;

import io.slotkeeper.config.TargetProperties;
import io.slotkeeper.connect.ConnectorClient;
import io.slotkeeper.fleet.Fleet;
import io.slotkeeper.sessions.Lsn;
import io.slotkeeper.slot.changing.RecreateResult;
import io.slotkeeper.slot.changing.SlotService;
import io.slotkeeper.testbed.ConnectStub;
import io.slotkeeper.testbed.PostgresServer;
import io.slotkeeper.testbed.PostgresTestBed;
import io.slotkeeper.testbed.TcpProxy;

import static io.slotkeeper.testbed.TestTargets.fleet;
import static io.slotkeeper.testbed.TestTargets.target;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * A recreate while Kafka Connect cannot be reached keeps its handover in the target's
 * database; once Connect answers, two instances (two pods, each with its own memory and
 * pool) trying at the same moment hand the connector over once, to the position the
 * recreate kept. A handover is kept as it begins too: its own instance leaves it alone,
 * another completes it from the row should that instance end before it is done.
 */
class HandoverCompletionsTests {

	@Test
	void aHandoverKeptWhileConnectWasDownIsCompletedOnceByOneOfTwoInstances() throws Exception {
		PostgresServer server = PostgresTestBed.shared();
		String database = server.createDatabase();
		// Slot names are the whole server's: a name of this test's own, dropped at the
		// end, on the shared server.
		server.execute(database, "SELECT pg_create_logical_replication_slot('kept_handover', 'pgoutput')");
		try (ConnectStub connect = new ConnectStub(); TcpProxy proxy = new TcpProxy("127.0.0.1", port(connect))) {
			connect.offsets("[{\"partition\":{\"server\":\"orders\"},\"offset\":{\"lsn\":100}}]");
			TargetProperties target = orders(server, database, "kept_handover", "http://127.0.0.1:" + proxy.port());
			List<Fleet> instances = List.of(fleet(target), fleet(target));
			List<SlotService> services = List.of(service(), service());
			try {
				proxy.retarget("127.0.0.1", closedPort());
				RecreateResult recreated = services.get(0)
					.recreates()
					.recreate(instances.get(0).get("orders"), null, "kept_handover", true, null);
				assertThat(recreated.connector().method()).isEqualTo("pending");
				assertThat(connect.changes()).isEmpty();
				assertThat(server.queryForString(database,
						"SELECT slot || ' ' || connector || ' ' || position FROM" + " slotkeeper.handovers"))
					.isEqualTo("kept_handover orders-cdc " + Lsn.parse(recreated.skipped().toLsn()));
				assertThat(services.get(1).followUps().completePendingHandovers(instances.get(1).get("orders")))
					.as("Connect still down: nothing completed")
					.isEmpty();

				proxy.retarget("127.0.0.1", port(connect));
				List<List<CompletedHandover>> completed = race(instances, services);
				assertThat(completed.stream().mapToInt(List::size).sum()).isEqualTo(1);
				CompletedHandover done = completed.stream().flatMap(List::stream).findFirst().orElseThrow();
				assertThat(done.connector().method()).isEqualTo("align");
				assertThat(done.connector().running()).isTrue();
				assertThat(connect.changes()).extracting(ConnectStub.Request::path)
					.containsExactly("/connectors/orders-cdc/stop", "/connectors/orders-cdc/offsets",
							"/connectors/orders-cdc/resume");
				assertThat(connect.offsets()).contains("\"lsn\":" + Lsn.parse(recreated.skipped().toLsn()));
				assertThat(server.queryForString(database, "SELECT count(*) FROM slotkeeper.handovers")).isEqualTo("0");
			}
			finally {
				instances.forEach(Fleet::close);
				server.execute(database, "SELECT pg_drop_replication_slot('kept_handover')");
			}
		}
	}

	@Test
	void aHandoverUnderWayIsKeptAsItBeginsLeftAloneByItsOwnInstanceAndCompletedFromTheRowByAnother() throws Exception {
		PostgresServer server = PostgresTestBed.shared();
		String database = server.createDatabase();
		server.execute(database, "SELECT pg_create_logical_replication_slot('begun_handover', 'pgoutput')");
		ExecutorService thread = Executors.newSingleThreadExecutor();
		try (ConnectStub connect = new ConnectStub()) {
			connect.offsets("[{\"partition\":{\"server\":\"orders\"},\"offset\":{\"lsn\":100}}]");
			// Its task never runs within the running timeout: the handover stays under
			// way
			// for 5 s.
			connect.status("{\"name\":\"orders-cdc\",\"connector\":{\"state\":\"RUNNING\"},"
					+ "\"tasks\":[{\"id\":0,\"state\":\"UNASSIGNED\"}]}");
			TargetProperties target = orders(server, database, "begun_handover", connect.url());
			List<Fleet> instances = List.of(fleet(target), fleet(target));
			List<SlotService> services = List.of(service(), service());
			try {
				Future<RecreateResult> recreating = thread.submit(() -> services.get(0)
					.recreates()
					.recreate(instances.get(0).get("orders"), null, "begun_handover", true, null));
				org.awaitility.Awaitility.await()
					.atMost(Duration.ofSeconds(10))
					.until(() -> "1"
						.equals(server.queryForString(database,
								"SELECT count(*) FROM pg_catalog.pg_tables WHERE schemaname = 'slotkeeper' AND"
										+ " tablename = 'handovers'"))
							&& "1".equals(server.queryForString(database, "SELECT count(*) FROM slotkeeper.handovers"
									+ " WHERE reason LIKE '%ended during its handover'")));

				assertThat(services.get(0).followUps().completePendingHandovers(instances.get(0).get("orders")))
					.as("its own instance leaves the handover it is completing alone")
					.isEmpty();
				connect.reset();
				// Had the first instance ended here, the target's next owner completes it
				// from the row alone: stopped (already), aligned, resumed.
				List<CompletedHandover> byTheNext = services.get(1)
					.followUps()
					.completePendingHandovers(instances.get(1).get("orders"));
				assertThat(byTheNext).singleElement()
					.satisfies((done) -> assertThat(done.connector().method()).isEqualTo("align"));
				assertThat(connect.changes()).extracting(ConnectStub.Request::path)
					.contains("/connectors/orders-cdc/offsets", "/connectors/orders-cdc/resume");

				RecreateResult recreated = recreating.get();
				assertThat(recreated.connector().method()).isEqualTo("align");
				assertThat(server.queryForString(database, "SELECT count(*) FROM slotkeeper.handovers")).isEqualTo("0");

				// Alone, the instance that began a handover removes its row once done.
				connect.status("{\"name\":\"orders-cdc\",\"connector\":{\"state\":\"RUNNING\"},"
						+ "\"tasks\":[{\"id\":0,\"state\":\"RUNNING\"}]}");
				assertThat(services.get(0)
					.recreates()
					.recreate(instances.get(0).get("orders"), null, "begun_handover", true, null)
					.connector()
					.running()).isTrue();
				assertThat(server.queryForString(database, "SELECT count(*) FROM slotkeeper.handovers")).isEqualTo("0");
			}
			finally {
				instances.forEach(Fleet::close);
				server.execute(database, "SELECT pg_drop_replication_slot('begun_handover')");
			}
		}
		finally {
			thread.shutdownNow();
		}
	}

	@Test
	void aHandoverWhoseWorkerWentAwayAfterItsStopKeepsTheUsersChoiceAndTheNextInstanceResumesTheConnector()
			throws Exception {
		PostgresServer server = PostgresTestBed.shared();
		String database = server.createDatabase();
		server.execute(database, "SELECT pg_create_logical_replication_slot('away_after_stop', 'pgoutput')");
		try (ConnectStub connect = new ConnectStub()) {
			connect.offsets("[{\"partition\":{\"server\":\"orders\"},\"offset\":{\"lsn\":100}}]");
			// The worker killed the moment slot-keeper's stop was answered.
			connect.onStop(() -> connect.starting(true));
			TargetProperties target = orders(server, database, "away_after_stop", connect.url());
			List<Fleet> instances = List.of(fleet(target), fleet(target));
			List<SlotService> services = List.of(service(), service());
			try {
				RecreateResult recreated = services.get(0)
					.recreates()
					.recreate(instances.get(0).get("orders"), null, "away_after_stop", true, null);
				assertThat(recreated.connector().method()).isEqualTo("pending");
				assertThat(server.queryForString(database, "SELECT chosen FROM slotkeeper.handovers"))
					.as("what the user chose, read before slot-keeper's stop")
					.isEqualTo("running");

				connect.onStop(() -> {
				});
				connect.starting(false);
				// Its instance gone, the next owner completes it: the connector, stopped
				// by slot-keeper and not by its user, runs again.
				List<CompletedHandover> byTheNext = services.get(1)
					.followUps()
					.completePendingHandovers(instances.get(1).get("orders"));
				assertThat(byTheNext).singleElement().satisfies((done) -> {
					assertThat(done.connector().method()).isEqualTo("align");
					assertThat(done.connector().running()).isTrue();
				});
				assertThat(connect.stopped()).isFalse();
				assertThat(connect.offsets()).contains("\"lsn\":" + Lsn.parse(recreated.skipped().toLsn()));
			}
			finally {
				instances.forEach(Fleet::close);
				server.execute(database, "SELECT pg_drop_replication_slot('away_after_stop')");
			}
		}
	}

	// Target "orders", whose slot's connector orders-cdc must run within 5 s of its
	// resume.
	private static TargetProperties orders(PostgresServer server, String database, String slot, String connectUrl) {
		return target("orders", server, database, "slots[0].name", slot, "slots[0].connector.url", connectUrl,
				"slots[0].connector.name", "orders-cdc", "slots[0].connector.running-timeout", "5s");
	}

	private static int port(ConnectStub connect) {
		return java.net.URI.create(connect.url()).getPort();
	}

	// A port nothing listens on: Connect's pod gone, the proxy playing its Service
	// refuses what it forwards.
	private static int closedPort() throws java.io.IOException {
		try (java.net.ServerSocket socket = new java.net.ServerSocket(0)) {
			return socket.getLocalPort();
		}
	}

	private static SlotService service() {
		return new SlotService(
				new ConnectorClient(RestClient.builder(), Duration.ofMillis(10), java.time.Clock.systemUTC()),
				new SimpleMeterRegistry(), java.time.Clock.systemUTC());
	}

	private static List<List<CompletedHandover>> race(List<Fleet> instances, List<SlotService> services)
			throws Exception {
		ExecutorService threads = Executors.newFixedThreadPool(instances.size());
		try {
			CountDownLatch start = new CountDownLatch(1);
			List<Future<List<CompletedHandover>>> outcomes = new ArrayList<>();
			for (int i = 0; i < instances.size(); i++) {
				Fleet instance = instances.get(i);
				SlotService service = services.get(i);
				outcomes.add(threads.submit(() -> {
					start.await();
					return service.followUps().completePendingHandovers(instance.get("orders"));
				}));
			}
			start.countDown();
			List<List<CompletedHandover>> results = new ArrayList<>();
			for (Future<List<CompletedHandover>> outcome : outcomes) {
				results.add(outcome.get());
			}
			return results;
		}
		finally {
			threads.shutdownNow();
		}
	}

}
