package io.slotkeeper.slot;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CyclicBarrier;
import java.util.stream.IntStream;

import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.web.client.RestClient;

import io.slotkeeper.connect.ConnectorClient;
import io.slotkeeper.connect.HandoverLog;
import io.slotkeeper.fleet.Fleet;
import io.slotkeeper.fleet.Target;
import io.slotkeeper.slot.reading.SlotFilter;
import io.slotkeeper.slot.watching.SlotWatch;
import io.slotkeeper.testbed.PostgresServer;
import io.slotkeeper.testbed.PostgresTestBed;

import static io.slotkeeper.testbed.TestTargets.fleet;
import static io.slotkeeper.testbed.TestTargets.target;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Listings asked for together are answered together, never from before the question, and an unchanged listing is
 * not rendered again — on a real server whose slots change between the questions (the server's listing is every
 * database's: each test filters on its own).
 */
class SlotListingsTests {

	private final JsonMapper json = JsonMapper.builder().build();

	@Test
	void aListingShowsWhatChangedBeforeItWasAskedForAndRendersAnUnchangedOneOnce() throws Exception {
		PostgresServer server = PostgresTestBed.shared();
		String database = server.createDatabase();
		try (Fleet fleet = fleet(target("orders", server, database))) {
			SlotFilter every = new SlotFilter(database, null, null);
			SlotListings listings = listings();
			Target orders = fleet.get("orders");
			assertThat(names(listings.list(orders, null, every))).isEmpty();
			server.execute(database, "SELECT pg_create_logical_replication_slot('first', 'pgoutput')");
			byte[] one = listings.list(orders, null, every);
			assertThat(names(one)).containsExactly("first");
			assertThat(listings.list(orders, null, every)).as("unchanged: the same rendering").isSameAs(one);
			assertThat(names(listings.list(orders, null, new SlotFilter(database, null, true)))).isEmpty();
			server.execute(database, "SELECT pg_drop_replication_slot('first')");
			assertThat(names(listings.list(orders, null, every))).isEmpty();
		}
	}

	@Test
	void callersAskingTogetherAllSeeTheSlotCreatedBeforeTheyAsked() throws Exception {
		PostgresServer server = PostgresTestBed.shared();
		String database = server.createDatabase();
		try (Fleet fleet = fleet(target("orders", server, database))) {
			SlotFilter every = new SlotFilter(database, null, null);
			SlotListings listings = listings();
			Target orders = fleet.get("orders");
			int callers = 16;
			for (int round = 0; round < 3; round++) {
				server.execute(database, "SELECT pg_create_logical_replication_slot('round_" + round + "', 'pgoutput')");
				CyclicBarrier together = new CyclicBarrier(callers);
				List<CompletableFuture<List<String>>> answers = IntStream.range(0, callers)
					.mapToObj((caller) -> CompletableFuture.supplyAsync(() -> {
						awaitOthers(together);
						return names(listings.list(orders, null, every));
					}))
					.toList();
				for (CompletableFuture<List<String>> answer : answers) {
					assertThat(answer.get()).hasSize(round + 1).contains("round_" + round);
				}
			}
		}
	}

	private SlotListings listings() {
		ConnectorClient connectors = new ConnectorClient(RestClient.builder(), Duration.ofSeconds(1));
		return new SlotListings(new SlotReader(connectors, new SlotWatch(connectors), new HandoverLog()), this.json);
	}

	private List<String> names(byte[] body) {
		JsonNode listing = this.json.readTree(body);
		return listing.valueStream().map((slot) -> slot.get("slotName").asString()).toList();
	}

	private static void awaitOthers(CyclicBarrier together) {
		try {
			together.await();
		}
		catch (Exception ex) {
			throw new IllegalStateException(ex);
		}
	}

}
