package io.slotkeeper.bench;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicLong;

import org.HdrHistogram.Histogram;

/**
 * A load generator for the API, run as a process of its own so that its threads do not share the service's JVM:
 * {@code HttpLoad <url> <bearer token or -> <connections> <seconds>} runs that many clients, each on its own
 * connection, sending one request after the other after a 3-second warm-up, and prints
 * {@code p50_us p99_us max_us requests_per_second non_2xx}.
 */
public final class HttpLoad {

	private HttpLoad() {
	}

	public static void main(String[] args) throws Exception {
		URI uri = URI.create(args[0]);
		String token = args[1];
		int connections = Integer.parseInt(args[2]);
		Duration window = Duration.ofSeconds(Long.parseLong(args[3]));
		HttpRequest.Builder builder = HttpRequest.newBuilder(uri).timeout(Duration.ofSeconds(30));
		if (!"-".equals(token)) {
			builder.header("Authorization", "Bearer " + token);
		}
		HttpRequest request = builder.build();
		List<HttpClient> clients = new ArrayList<>();
		for (int c = 0; c < connections; c++) {
			clients.add(HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build());
		}
		run(clients, request, Duration.ofSeconds(3), new AtomicLong());
		AtomicLong failures = new AtomicLong();
		long start = System.nanoTime();
		Histogram all = run(clients, request, window, failures);
		double seconds = (System.nanoTime() - start) / 1e9;
		System.out.printf("%d %d %d %.0f %d%n", all.getValueAtPercentile(50), all.getValueAtPercentile(99),
				all.getMaxValue(), all.getTotalCount() / seconds, failures.get());
		System.exit(0);
	}

	private static Histogram run(List<HttpClient> clients, HttpRequest request, Duration window, AtomicLong failures)
			throws Exception {
		ExecutorService threads = Executors.newFixedThreadPool(clients.size());
		long until = System.nanoTime() + window.toNanos();
		List<Future<Histogram>> futures = new ArrayList<>();
		for (HttpClient client : clients) {
			futures.add(threads.submit(() -> {
				Histogram latency = new Histogram(60_000_000, 3);
				while (System.nanoTime() < until) {
					long t = System.nanoTime();
					int status = client.send(request, HttpResponse.BodyHandlers.discarding()).statusCode();
					latency.recordValue(Math.min(59_999_999, (System.nanoTime() - t) / 1000));
					if (status / 100 != 2) {
						failures.incrementAndGet();
					}
				}
				return latency;
			}));
		}
		Histogram all = new Histogram(60_000_000, 3);
		for (Future<Histogram> future : futures) {
			all.add(future.get());
		}
		threads.shutdown();
		return all;
	}

}
