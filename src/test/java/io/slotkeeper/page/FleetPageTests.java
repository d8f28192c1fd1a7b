package io.slotkeeper.page;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;

import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import io.slotkeeper.testbed.Browser;
import io.slotkeeper.testbed.LogicalConsumer;
import io.slotkeeper.testbed.PostgresServer;
import io.slotkeeper.testbed.PostgresTestBed;
import io.slotkeeper.testbed.RefusedPort;
import io.slotkeeper.testbed.SlotRecipes;
import io.slotkeeper.testbed.TestTokens;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The page at a fleet of targets × 3 slots, on real servers: all but two targets on one
 * server whose three slots have streaming consumers, one on a second server whose slots
 * were lost, one on a port nobody listens on. The page shows the two broken ones first,
 * renders one page of 25 targets, and prints how long it takes to load and to refresh
 * (figures, not assertions: the machine's speed is not what this test proves). Its
 * targets stop with the class, so that they do not load the machine under the tests that
 * follow.
 * <p>
 * What it needs: {@code -Dfleet.page.targets} targets (300 by default) with their 2
 * sessions each on this 2-core machine. The page was measured at 1,000
 * ({@code -Dfleet.page.targets=1000}); the whole application at 1,000 targets takes about
 * a minute to bring every heartbeat up on 2 cores, which {@code FleetConvergenceTests}
 * and the benchmark measure, so the suite runs a size that comes up in seconds.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
@DirtiesContext
class FleetPageTests {

	static final int TARGETS = Integer.getInteger("fleet.page.targets", 300);

	private static final int BROKEN = TARGETS / 2;

	private static final int DEAD = TARGETS * 9 / 10;

	private static final String VIEWER = "fleet-viewer-token";

	private static final String OPERATOR = "fleet-operator-token";

	private static PostgresServer healthy;

	private static PostgresServer broken;

	private static final List<LogicalConsumer> consumers = new ArrayList<>();

	@LocalServerPort
	int port;

	static synchronized void servers() {
		if (healthy != null) {
			return;
		}
		// Each target holds a heartbeat session and a poll session.
		healthy = PostgresTestBed.dedicated(Map.of("max_connections", "2200"));
		broken = PostgresTestBed.dedicated(Map.of("max_slot_wal_keep_size", "1MB"));
		for (PostgresServer server : List.of(healthy, broken)) {
			server.execute("postgres", "CREATE DATABASE fleet");
			server.execute("fleet", "CREATE TABLE orders (id bigserial PRIMARY KEY, item text)",
					"CREATE PUBLICATION fleet_pub FOR TABLE orders");
			for (String slot : List.of("orders_cdc", "audit_cdc", "search_cdc")) {
				server.execute("fleet", "SELECT pg_create_logical_replication_slot('" + slot + "', 'pgoutput')");
			}
			Runtime.getRuntime().addShutdownHook(new Thread(server::close));
		}
		SlotRecipes.lose(broken, "fleet", "search_cdc");
		try {
			for (String slot : List.of("orders_cdc", "audit_cdc", "search_cdc")) {
				consumers.add(new LogicalConsumer(healthy, "fleet", slot, "fleet_pub", true));
			}
		}
		catch (SQLException ex) {
			throw new IllegalStateException(ex);
		}
	}

	@AfterAll
	static void stopConsumers() throws InterruptedException {
		for (LogicalConsumer consumer : consumers) {
			consumer.close();
		}
	}

	@DynamicPropertySource
	static void properties(DynamicPropertyRegistry registry) throws IOException {
		servers();
		int dead = RefusedPort.PORT;
		for (int i = 0; i < TARGETS; i++) {
			String prefix = "slotkeeper.targets[" + i + "].";
			String name = String.format("db-%04d", i);
			String url = (i == BROKEN) ? broken.jdbcUrl("fleet")
					: (i == DEAD) ? "jdbc:postgresql://127.0.0.1:" + dead + "/fleet" : healthy.jdbcUrl("fleet");
			registry.add(prefix + "name", () -> name);
			registry.add(prefix + "url", () -> url);
			registry.add(prefix + "username", () -> healthy.user());
			registry.add(prefix + "heartbeat.interval", () -> "10s");
			registry.add(prefix + "slots-poll-interval", () -> "5s");
		}
		TestTokens.register(registry, VIEWER, OPERATOR);
	}

	@Test
	void aFleetShowsTheBrokenOnesFirstOnePageAtATime() throws Exception {
		// Sized for a loaded 2-core machine: every target's two sessions come up beside
		// the suite.
		await().atMost(Duration.ofMinutes(5)).until(() -> overviewBody().contains("\"slots\":" + (TARGETS - 1) * 3));
		List<Long> apiMillis = new ArrayList<>();
		int bytes = 0;
		for (int i = 0; i < 20; i++) {
			long start = System.nanoTime();
			bytes = overviewBody().length();
			apiMillis.add((System.nanoTime() - start) / 1_000_000);
		}
		try (Browser browser = Browser.start()) {
			PageDriver page = new PageDriver(browser, this.port);
			page.open();
			page.signIn(OPERATOR);
			await().atMost(Duration.ofSeconds(30)).until(() -> page.loadedAt() != null);
			// What an on-call engineer meets: the page opened again in a tab that holds
			// the token.
			page.driver().navigate().refresh();
			await().atMost(Duration.ofSeconds(30)).until(() -> page.loadedAt() != null);
			double load = (Double) number(page, "const m = performance.getEntriesByName('slotkeeper-refresh')[0];"
					+ " return m.startTime + m.duration;");
			for (int i = 0; i < 4; i++) {
				page.awaitRefresh();
			}
			List<Double> refreshes = measures(page, "slotkeeper-refresh");
			List<Double> renders = measures(page, "slotkeeper-render");

			int pages = (TARGETS + 24) / 25;
			assertThat(page.text("page-label")).isEqualTo("Page 1 of " + pages + " (" + TARGETS + " targets)");
			assertThat(page.driver().findElements(By.cssSelector("#targets article"))).hasSize(25);
			@SuppressWarnings("unchecked")
			List<String> firstTwo = (List<String>) page.driver()
				.executeScript("return [...document.querySelectorAll("
						+ "'#targets article')].slice(0, 2).map((card) => card.dataset.target + ' ' + card.className)");
			assertThat(firstTwo).containsExactly(String.format("db-%04d target sev-down", BROKEN),
					String.format("db-%04d target sev-down", DEAD));
			assertThat(page.rowText("search_cdc")).contains("lost");
			assertThat(page.text("summary")).contains(TARGETS + " targets").contains((TARGETS - 1) * 3 + " slots");
			page.screenshot("fleet-" + TARGETS);

			page.driver().findElement(By.id("next")).click();
			await().atMost(Duration.ofSeconds(30))
				.until(() -> page.text("page-label").startsWith("Page 2 of " + pages));
			assertThat(page.driver().findElements(By.cssSelector("#targets article"))).hasSize(25);
			assertThat(browser.unexpectedProblems()).isEmpty();

			System.out.printf("%nOperator page at %d targets x 3 slots (25 per page, history included):%n"
					+ "  GET /api/v1/overview?size=25&history=true: %d bytes, p50 %d ms, max %d ms over %d calls%n"
					+ "  load (navigation to first render, token in the tab): %.0f ms%n"
					+ "  refresh (fetch overview + audit, render, layout): %s ms; of which render + layout: %s ms%n%n",
					TARGETS, bytes, percentile(apiMillis, 50), percentile(apiMillis, 100), apiMillis.size(), load,
					rounded(refreshes), rounded(renders));
		}
	}

	private String overviewBody() throws IOException, InterruptedException {
		HttpRequest request = HttpRequest
			.newBuilder(URI.create("http://localhost:" + this.port + "/api/v1/overview?size=25&history=true"))
			.header("Authorization", "Bearer " + VIEWER)
			.build();
		return HttpClient.newHttpClient().send(request, HttpResponse.BodyHandlers.ofString()).body();
	}

	private static Object number(PageDriver page, String script) {
		Object value = page.driver().executeScript(script);
		return (value instanceof Long whole) ? whole.doubleValue() : value;
	}

	@SuppressWarnings("unchecked")
	private static List<Double> measures(PageDriver page, String name) {
		List<Object> values = (List<Object>) page.driver()
			.executeScript("return performance.getEntriesByName('" + name + "').map((m) => m.duration)");
		return values.stream().map((value) -> ((Number) value).doubleValue()).toList();
	}

	private static long percentile(List<Long> values, int percent) {
		List<Long> sorted = values.stream().sorted().toList();
		return sorted.get(Math.min(sorted.size() - 1, (int) Math.ceil(percent / 100.0 * sorted.size()) - 1));
	}

	private static String rounded(List<Double> values) {
		return values.stream().map((value) -> String.valueOf(Math.round(value))).toList().toString();
	}

}
