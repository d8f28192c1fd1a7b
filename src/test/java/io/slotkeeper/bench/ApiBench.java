package io.slotkeeper.bench;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.springframework.context.ConfigurableApplicationContext;

import io.slotkeeper.slot.SlotListing;
import io.slotkeeper.testbed.ConnectStub;
import io.slotkeeper.testbed.PostgresServer;

import static org.awaitility.Awaitility.await;

/**
 * The API's own cost, measured from a separate process, wrk ({@code apt-get install wrk};
 * without it the section says so and measures nothing); {@code /actuator/health/liveness}
 * is the floor (HTTP and the filter chain), the listing adds the query, the JSON and the
 * token check.
 */
final class ApiBench {

	private static final int CONNECTIONS = 32;

	private static final Duration WINDOW = Duration.ofSeconds(15);

	private static final Duration WARM_UP = Duration.ofSeconds(10);

	private static final int CONNECTORS = 10;

	private ApiBench() {
	}

	private record Load(double p50, double p99, double max, double rps, long failures) {
	}

	static void run(BenchReport report, PostgresServer server) throws Exception {
		if (!wrk()) {
			report.section("## 4. API: `GET /api/v1/targets/{t}/slots`, measured from outside\n\nNot measured: wrk is"
					+ " not on the PATH (`apt-get install wrk`).\n");
			return;
		}
		String database = server.createDatabase();
		List<List<Object>> rows = new ArrayList<>();
		String generator = "wrk (2 threads, " + CONNECTIONS + " connections, then 1)";
		int connectCalls;
		try (ConnectStub connect = new ConnectStub()) {
			Map<String, String> connectors = new HashMap<>(Map.of("slotkeeper.targets[0].slots-poll-interval", "1h"));
			for (int i = 0; i < CONNECTORS; i++) {
				connectors.put("slotkeeper.targets[0].slots[" + i + "].name", "api_" + i);
				connectors.put("slotkeeper.targets[0].slots[" + i + "].connector.url", connect.url());
				connectors.put("slotkeeper.targets[0].slots[" + i + "].connector.name", "connector-" + i);
			}
			try (ConfigurableApplicationContext app = BenchSupport.app(server, database, connectors)) {
				int made = 0;
				int calls = 0;
				String floorUrl = BenchSupport.base(app) + "/actuator/health/liveness";
				String listingUrl = BenchSupport.base(app) + "/api/v1/targets/bench/slots";
				// Both paths compiled before either is measured: the first window would
				// otherwise pay the JIT.
				run(wrk(floorUrl, "-", CONNECTIONS, WARM_UP));
				run(wrk(listingUrl, BenchSupport.TOKEN, CONNECTIONS, WARM_UP));
				for (int slots : new int[] { 10, 100 }) {
					for (; made < slots; made++) {
						server.execute(database,
								"SELECT pg_create_logical_replication_slot('api_" + made + "', 'pgoutput')");
					}
					await().atMost(Duration.ofSeconds(10)).until(() -> connect.requests().size() >= CONNECTORS);
					int before = connect.requests().size();
					Load floor = load(floorUrl, "-", CONNECTIONS);
					Load listing = load(listingUrl, BenchSupport.TOKEN, CONNECTIONS);
					Load floorAlone = load(floorUrl, "-", 1);
					Load listingAlone = load(listingUrl, BenchSupport.TOKEN, 1);
					calls += connect.requests().size() - before;
					double query = BenchReport.median(rawListingMicros(server, database, 1000)) / 1000.0;
					rows.add(List.of(slots, ms(floor.p50()), ms(listing.p50()),
							String.format("%.2f", listing.p50() / floor.p50()), ms(listing.p99()), ms(listing.max()),
							String.format("%.0f", floor.rps()), String.format("%.0f", listing.rps()),
							ms(floorAlone.p50()) + " / " + ms(listingAlone.p50()),
							String.format("%.2f", listingAlone.p50() / floorAlone.p50()), String.format("%.2f", query),
							listing.failures() + floor.failures() + floorAlone.failures() + listingAlone.failures()));
				}
				connectCalls = calls;
			}
		}
		report.section("## 4. API: `GET /api/v1/targets/{t}/slots`, measured from outside\n\n" + generator + " for "
				+ WINDOW.toSeconds() + " s after a 3 s warm-up, against the application in the benchmark's JVM (2 cores"
				+ " shared by both and PostgreSQL), first `/actuator/health/liveness` — the floor: HTTP, the security"
				+ " filter chain, a tiny JSON — then the listing with a bearer token, " + CONNECTORS
				+ " of its slots with" + " a Kafka Connect connector configured; both warmed up for "
				+ WARM_UP.toSeconds() + " s first. Listings"
				+ " asked for together are read and rendered once (a caller never gets a reading older than its"
				+ " request): the 32-connection columns show that, *one client* (1 connection) the cost of one listing"
				+ " on its own. Query alone: the listing's SQL on one connection, 1,000 runs, median.\n\n"
				+ BenchReport.table(List.of("slots", "floor p50 ms", "listing p50 ms", "÷ floor", "listing p99 ms",
						"listing max ms", "floor req/s", "listing req/s", "one client: floor / listing p50 ms",
						"one client ÷", "query alone ms", "non-2xx"), rows)
				+ "\nKafka Connect calls while the listings ran: **" + connectCalls + "** (connector states shown in"
				+ " the listing come from the last poll, with `checkedAt`; only `GET …/slots/{slot}/connector` asks"
				+ " Kafka Connect).\n");
	}

	private static String ms(double millis) {
		return String.format("%.2f", millis);
	}

	private static boolean wrk() {
		return System.getenv("PATH") != null && java.util.Arrays.stream(System.getenv("PATH").split(":"))
			.anyMatch((dir) -> Path.of(dir, "wrk").toFile().canExecute());
	}

	private static Load load(String url, String token, int connections) throws Exception {
		run(wrk(url, token, connections, Duration.ofSeconds(3)));
		List<String> command = wrk(url, token, connections, WINDOW);
		command.add(1, "--latency");
		return parseWrk(run(command));
	}

	private static List<String> wrk(String url, String token, int connections, Duration window) {
		List<String> command = new ArrayList<>(List.of("wrk", "-t" + Math.min(2, connections), "-c" + connections,
				"-d" + window.toSeconds() + "s", url));
		if (!"-".equals(token)) {
			command.addAll(List.of("-H", "Authorization: Bearer " + token));
		}
		return command;
	}

	private static String run(List<String> command) throws Exception {
		Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
		String output = new String(process.getInputStream().readAllBytes());
		if (!process.waitFor(2, TimeUnit.MINUTES) || process.exitValue() != 0) {
			throw new IllegalStateException("load generator failed: " + output);
		}
		return output;
	}

	static Load parseWrk(String output) {
		return new Load(latency(output, "50%").first(), latency(output, "99%").first(),
				latency(output, "Latency").max(), number(output, "Requests/sec:\\s+([0-9.]+)"),
				(long) number(output, "Non-2xx or 3xx responses:\\s+(\\d+)"));
	}

	// " 50% 6.10ms", and the Latency line "Latency 6.2ms 1.1ms 40.3ms 90%": avg, stdev,
	// max.
	private static Millis latency(String output, String label) {
		Matcher line = Pattern.compile("(?m)^\\s*" + Pattern.quote(label) + "\\s+(.*)$").matcher(output);
		if (!line.find()) {
			throw new IllegalStateException("no " + label + " line in: " + output);
		}
		List<Double> values = new ArrayList<>();
		Matcher value = Pattern.compile("([0-9.]+)(us|ms|s)\\b").matcher(line.group(1));
		while (value.find()) {
			double number = Double.parseDouble(value.group(1));
			values.add(switch (value.group(2)) {
				case "us" -> number / 1000;
				case "ms" -> number;
				default -> number * 1000;
			});
		}
		return new Millis(values);
	}

	private static double number(String output, String regex) {
		Matcher matcher = Pattern.compile(regex).matcher(output);
		return matcher.find() ? Double.parseDouble(matcher.group(1)) : 0;
	}

	private record Millis(List<Double> values) {

		double first() {
			return this.values.get(0);
		}

		double max() {
			return this.values.get(2);
		}

	}

	private static double[] rawListingMicros(PostgresServer server, String database, int runs) throws Exception {
		double[] micros = new double[runs];
		try (Connection connection = server.connect(database);
				PreparedStatement statement = connection
					.prepareStatement(SlotListing.sql(connection.getMetaData().getDatabaseMajorVersion()))) {
			for (int i = 0; i < runs; i++) {
				long t = System.nanoTime();
				try (ResultSet result = statement.executeQuery()) {
					while (result.next()) {
						result.getString(1);
					}
				}
				micros[i] = (System.nanoTime() - t) / 1000.0;
			}
		}
		return micros;
	}

}
