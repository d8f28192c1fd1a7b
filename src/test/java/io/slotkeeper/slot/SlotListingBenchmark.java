package io.slotkeeper.slot;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Prints the latency of {@code GET /api/v1/targets/main/slots} under 32 concurrent clients on loopback, next to the
 * listing query's own time on one connection. Not part of the test run:
 * {@code ./mvnw test -Dtest=SlotListingBenchmark -Dsurefire.excludedGroups=}.
 */
@Tag("benchmark")
class SlotListingBenchmark extends SlotApiTestSupport {

	private static final int CLIENTS = 32;

	private static final int REQUESTS_PER_CLIENT = 100;

	@ParameterizedTest(name = "{0} slots")
	@ValueSource(ints = { 10, 100 })
	void listingLatencyUnderConcurrentClients(int slots) throws Exception {
		for (int i = 0; i < slots; i++) {
			createSlot("bench_" + i);
		}
		try {
			HttpClient http = HttpClient.newHttpClient();
			HttpRequest request = HttpRequest.newBuilder(URI.create("http://localhost:" + this.port
					+ "/api/v1/targets/main/slots")).header("Authorization", "Bearer " + VIEWER).build();
			long[] single = new long[500];
			for (int i = 0; i < single.length; i++) {
				long t = System.nanoTime();
				assertThat(http.send(request, HttpResponse.BodyHandlers.ofString()).statusCode()).isEqualTo(200);
				single[i] = (System.nanoTime() - t) / 1000;
			}
			Arrays.sort(single);
			ExecutorService clients = Executors.newFixedThreadPool(CLIENTS);
			long start = System.nanoTime();
			List<Future<long[]>> results = new ArrayList<>();
			for (int c = 0; c < CLIENTS; c++) {
				results.add(clients.submit(() -> {
					long[] micros = new long[REQUESTS_PER_CLIENT];
					for (int i = 0; i < REQUESTS_PER_CLIENT; i++) {
						long t = System.nanoTime();
						HttpResponse<String> response = http.send(request, HttpResponse.BodyHandlers.ofString());
						micros[i] = (System.nanoTime() - t) / 1000;
						assertThat(response.statusCode()).isEqualTo(200);
					}
					return micros;
				}));
			}
			long[] all = new long[CLIENTS * REQUESTS_PER_CLIENT];
			for (int c = 0; c < CLIENTS; c++) {
				System.arraycopy(results.get(c).get(), 0, all, c * REQUESTS_PER_CLIENT, REQUESTS_PER_CLIENT);
			}
			double seconds = (System.nanoTime() - start) / 1e9;
			clients.shutdown();
			Arrays.sort(all);
			long[] sql = rawQueryMicros(1000);
			System.out.printf("GET /slots with %d slots, one client: p50 %.2f ms, p99 %.2f ms; %d clients x %d requests:"
					+ " p50 %.2f ms, p99 %.2f ms, max %.2f ms, %.0f requests/s; listing query alone (one connection):"
					+ " p50 %.2f ms, p99 %.2f ms (PG %d)%n", slots, single[single.length / 2] / 1000.0,
					single[single.length * 99 / 100] / 1000.0, CLIENTS, REQUESTS_PER_CLIENT, all[all.length / 2] / 1000.0, all[all.length * 99 / 100] / 1000.0,
					all[all.length - 1] / 1000.0, all.length / seconds, sql[sql.length / 2] / 1000.0,
					sql[sql.length * 99 / 100] / 1000.0, server().majorVersion());
		}
		finally {
			for (int i = 0; i < slots; i++) {
				server().execute(DATABASE, "SELECT pg_drop_replication_slot('bench_" + i + "')");
			}
		}
	}

	private static long[] rawQueryMicros(int runs) throws Exception {
		long[] micros = new long[runs];
		try (Connection connection = server().connect(DATABASE)) {
			String sql = SlotRepository.listing(SlotRepository.major(connection), false);
			try (PreparedStatement statement = connection.prepareStatement(sql)) {
				for (int i = 0; i < runs; i++) {
					long t = System.nanoTime();
					try (ResultSet result = statement.executeQuery()) {
						while (result.next()) {
							result.getString(1);
						}
					}
					micros[i] = (System.nanoTime() - t) / 1000;
				}
			}
		}
		Arrays.sort(micros);
		return micros;
	}

}
