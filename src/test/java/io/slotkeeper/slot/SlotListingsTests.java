package io.slotkeeper.slot;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CyclicBarrier;
import java.util.stream.IntStream;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.web.client.RestClient;

import io.slotkeeper.connect.ConnectorClient;
import io.slotkeeper.fleet.Fleet;
import io.slotkeeper.fleet.Target;
import io.slotkeeper.handover.HandoverLog;
import io.slotkeeper.replication.SlotFilter;
import io.slotkeeper.testbed.PostgresServer;
import io.slotkeeper.testbed.PostgresTestBed;
import io.slotkeeper.testbed.TestTargets;
import io.slotkeeper.watching.SlotWatch;

import static io.slotkeeper.testbed.TestTargets.fleet;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Listings asked for together are answered together, never from before the question, and
 * an unchanged listing is not rendered again — on a real server whose slots change
 * between the questions (the server's listing is every database's: each test filters on
 * its own).
 */
class SlotListingsTests {

	private final JsonMapper json = JsonMapper.builder().build();

	private final PostgresServer server = PostgresTestBed.shared();

	private String database;

	private Fleet fleet;

	private Target orders;

	private SlotFilter every;

	private SlotListings listings;

	@BeforeEach
	void target() {
		this.database = this.server.createDatabase();
		this.fleet = fleet(TestTargets.target("orders", this.server, this.database));
		this.orders = this.fleet.get("orders");
		this.every = new SlotFilter(this.database, null, null);
		this.listings = listings();
	}

	@AfterEach
	void close() {
		this.fleet.close();
	}

	@Test
	void aListingShowsWhatChangedBeforeItWasAskedForAndRendersAnUnchangedOneOnce() {
		assertThat(names(this.listings.list(this.orders, null, this.every))).isEmpty();
		this.server.execute(this.database, "SELECT pg_create_logical_replication_slot('first', 'pgoutput')");
		byte[] one = this.listings.list(this.orders, null, this.every);
		assertThat(names(one)).containsExactly("first");
		assertThat(this.listings.list(this.orders, null, this.every)).as("unchanged: the same rendering").isSameAs(one);
		assertThat(names(this.listings.list(this.orders, null, new SlotFilter(this.database, null, true)))).isEmpty();
		this.server.execute(this.database, "SELECT pg_drop_replication_slot('first')");
		assertThat(names(this.listings.list(this.orders, null, this.every))).isEmpty();
	}

	@Test
	void callersAskingTogetherAllSeeTheSlotCreatedBeforeTheyAsked() throws Exception {
		int callers = 16;
		for (int round = 0; round < 3; round++) {
			this.server.execute(this.database,
					"SELECT pg_create_logical_replication_slot('round_" + round + "', 'pgoutput')");
			CyclicBarrier together = new CyclicBarrier(callers);
			List<CompletableFuture<List<String>>> answers = IntStream.range(0, callers)
				.mapToObj((caller) -> CompletableFuture.supplyAsync(() -> {
					awaitOthers(together);
					return names(this.listings.list(this.orders, null, this.every));
				}))
				.toList();
			for (CompletableFuture<List<String>> answer : answers) {
				assertThat(answer.get()).hasSize(round + 1).contains("round_" + round);
			}
		}
	}

	private SlotListings listings() {
		ConnectorClient connectors = new ConnectorClient(RestClient.builder(), Duration.ofSeconds(1),
				java.time.Clock.systemUTC());
		return new SlotListings(new SlotReader(connectors, new SlotWatch(connectors, java.time.Clock.systemUTC()),
				new HandoverLog(), java.time.Clock.systemUTC()), this.json);
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
