package io.slotkeeper.page;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chromium.ChromiumNetworkConditions;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import io.slotkeeper.fleet.Fleet;
import io.slotkeeper.testbed.Browser;
import io.slotkeeper.testbed.PostgresServer;
import io.slotkeeper.testbed.SlotRecipes;
import io.slotkeeper.testbed.StrimziResources;
import io.slotkeeper.testbed.TestTokens;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The operator's page in Debian's Chromium against the application on a real server whose
 * {@code max_slot_wal_keep_size} is 1 MB (a slot is lost in milliseconds): an operator
 * recreates a lost slot with the buttons, a viewer gets none, a wrong token is told so,
 * no token ever shows in a URL, and an unreachable API is said while the last data stays,
 * and a connector found in a KafkaConnector resource is shown as discovered. Every test
 * fails on a console error or a Content-Security-Policy violation it did not cause on
 * purpose.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
class OperatorPageTests {

	private static final String VIEWER = "page-viewer-token-4711";

	private static final String OPERATOR = "page-operator-token-0815";

	private static final String DATABASE = "shop";

	private static PostgresServer server;

	private static StrimziResources kubernetes;

	private static Path kubernetesToken;

	@LocalServerPort
	int port;

	@Autowired
	Fleet fleet;

	static synchronized PostgresServer server() {
		if (server == null) {
			server = SlotRecipes.lossyServer(DATABASE, "CREATE PUBLICATION shop_pub FOR TABLE orders",
					"CREATE TABLE customers (id bigint PRIMARY KEY)", "CREATE TABLE debezium_signal (id varchar(42)"
							+ " PRIMARY KEY, type varchar(32) NOT NULL, data varchar(2048))");
		}
		return server;
	}

	@DynamicPropertySource
	static void properties(DynamicPropertyRegistry registry) {
		registry.add("slotkeeper.targets[0].name", () -> "shop");
		registry.add("slotkeeper.targets[0].url", () -> server().jdbcUrl(DATABASE));
		registry.add("slotkeeper.targets[0].username", () -> server().user());
		registry.add("slotkeeper.targets[0].heartbeat.interval", () -> "1s");
		registry.add("slotkeeper.targets[0].slots-poll-interval", () -> "300ms");
		// A recreate of page_orders signals a re-snapshot of only the tables written to
		// while it was lost.
		registry.add("slotkeeper.targets[0].slots[0].name", () -> "page_orders");
		registry.add("slotkeeper.targets[0].slots[0].resnapshot.mode", () -> "debezium-signal");
		registry.add("slotkeeper.targets[0].slots[0].resnapshot.signal-table", () -> "public.debezium_signal");
		registry.add("slotkeeper.targets[0].slots[0].resnapshot.collections", () -> "public.orders,public.customers");
		registry.add("slotkeeper.targets[0].slots[0].resnapshot.tables", () -> "changed");
		// Connectors found in KafkaConnector resources of a Kubernetes API stand-in.
		registry.add("slotkeeper.strimzi.api-server", () -> kubernetes().url());
		registry.add("slotkeeper.strimzi.service-account-token-file", () -> kubernetesToken.toString());
		registry.add("slotkeeper.connector-discovery.strimzi-namespaces", () -> "cdc");
		registry.add("slotkeeper.connector-discovery.interval", () -> "1s");
		TestTokens.register(registry, VIEWER, OPERATOR);
	}

	static synchronized StrimziResources kubernetes() {
		if (kubernetes == null) {
			try {
				kubernetesToken = Files.createTempFile("page-sa", "");
				Files.writeString(kubernetesToken, "page-sa-token");
			}
			catch (IOException ex) {
				throw new UncheckedIOException(ex);
			}
			kubernetes = new StrimziResources("page-sa-token", "v1");
		}
		return kubernetes;
	}

	@Test
	void aConnectorFoundInAKafkaConnectorResourceIsShownOnItsSlotsRowAsDiscovered() {
		server().execute(DATABASE, "SELECT pg_create_logical_replication_slot('page_found', 'pgoutput')");
		kubernetes().createConnector("cdc", "shop-found",
				Map.of("class", "io.debezium.connector.postgresql.PostgresConnector", "config",
						Map.of("database.hostname", server().host(), "database.port", server().port(),
								"database.dbname", DATABASE, "slot.name", "page_found")));
		try (Browser browser = Browser.start()) {
			PageDriver page = new PageDriver(browser, this.port);
			page.open();
			page.signIn(VIEWER);
			await().atMost(Duration.ofSeconds(30)).until(() -> page.rowText("page_found").contains("shop-found"));
			assertThat(page.textOf("tr[data-slot='page_found'] .connector .discovered")).isEqualTo("discovered");
			assertThat(page.driver().findElements(By.cssSelector("tr[data-slot='page_orders'] .connector .discovered")))
				.as("a slot without a connector shows none")
				.isEmpty();
			page.screenshot("discovered-connector");
			assertThat(browser.unexpectedProblems()).isEmpty();
		}
		finally {
			server().execute(DATABASE, "SELECT pg_drop_replication_slot('page_found')");
		}
	}

	@Test
	void anOperatorRecreatesALostSlotThroughTheButtonsAfterItsDryRun() {
		// The tables' write counters were read before the slot's first position: its loss
		// is measured from there.
		await().atMost(Duration.ofSeconds(30))
			.until(() -> this.fleet.get("shop").tableCounters().before(Long.MAX_VALUE).isPresent());
		server().execute(DATABASE, "SELECT pg_create_logical_replication_slot('page_orders', 'pgoutput')");
		try (Browser browser = Browser.start()) {
			PageDriver page = new PageDriver(browser, this.port);
			page.open();
			page.signIn(OPERATOR);
			await().atMost(Duration.ofSeconds(30)).until(() -> page.rowText("page_orders").contains("reserved"));
			assertThat(page.text("who")).isEqualTo("Signed in as ci (operator)");
			// No consumer reads the slot: the page says for how long, and what it has
			// left at the server's WAL rate.
			await().atMost(Duration.ofSeconds(30))
				.until(() -> page.rowText("page_orders"), (row) -> row
					.matches("(?s).*consumer gone \\d+ (s|min) · lost in \\d+ (s|min|h|d) at [0-9.]+ [kMG]?B/s.*"));
			// Its chart goes on past now: the WAL it will retain at that rate, up to its
			// limit.
			await().atMost(Duration.ofSeconds(30))
				.until(() -> page.attributeOf("tr[data-slot='page_orders'] svg.spark", "aria-label"),
						(label) -> label
							.matches("page_orders: retained WAL over the last hour, .*; forecast at [0-9.]+ [kMG]?B/s:"
									+ " reaches its limit of [0-9.]+ [kMG]?B in \\d+ (s|min|h|d)"));
			assertThat(
					page.driver().findElements(By.cssSelector("tr[data-slot='page_orders'] svg.spark .spark-forecast")))
				.hasSize(1);
			page.screenshot("healthy");

			SlotRecipes.lose(server(), DATABASE, "page_orders");
			await().atMost(Duration.ofSeconds(30)).until(() -> page.rowText("page_orders").contains("lost"));
			// The lossy server keeps 1 MB of WAL for its slots: at the rate the loss's
			// WAL switches took it to, far
			// less than the target's loss-warning of an hour; the page says so apart from
			// the problems.
			String settings = "article[data-target='shop'] [data-part='settings']";
			await().atMost(Duration.ofSeconds(30))
				.until(() -> page.textOf(settings),
						(text) -> text.contains("max_slot_wal_keep_size = 1MB: holds about"));
			assertThat(page.textOf(settings)).startsWith("WARNING");
			assertThat(page.rowText("page_orders")).contains("invalidated by the server (wal_removed)");
			assertThat(page.attributeOf("article[data-target='shop']", "class")).contains("sev-down");
			assertThat(page.textOf("article[data-target='shop'] tr[data-slot='page_orders'] .badge"))
				.isEqualTo("✕ lost");
			page.screenshot("lost-slot");

			page.press("page_orders", "Recreate");
			await().atMost(Duration.ofSeconds(15)).until(() -> page.text("action-plan").contains("Dry run"));
			List<WebElement> steps = page.driver().findElements(By.cssSelector("#action-plan .steps li"));
			assertThat(steps).isNotEmpty();
			assertThat(page.text("action-title")).isEqualTo("Recreate slot page_orders on shop");
			assertThat(lostOnServer("page_orders")).as("the dry run changed nothing").isTrue();
			page.screenshot("recreate-dry-run");
			page.driver().findElement(By.id("action-confirm")).click();
			await().atMost(Duration.ofSeconds(30)).until(() -> page.text("action-plan").contains("Done."));
			assertThat(page.text("action-plan")).contains("was recreated at")
				.contains("Skipped WAL")
				.contains("Re-snapshot: signal for public.orders; skipped as unchanged: public.customers.");
			page.driver().findElement(By.id("action-cancel")).click();

			await().atMost(Duration.ofSeconds(30)).until(() -> page.rowText("page_orders").contains("reserved"));
			assertThat(page.rowText("page_orders")).doesNotContain("invalidated");
			assertThat(lostOnServer("page_orders")).isFalse();
			// The recreated slot is the next epoch of its name, with where the previous
			// epoch's consumer was.
			await().atMost(Duration.ofSeconds(30))
				.until(() -> page.rowText("page_orders"), (row) -> row
					.matches("(?s).*epoch 2 · recreated \\d+ (s|min) ago · previous at [0-9A-F]+/[0-9A-F]+"
							+ " · re-snapshot of public.orders, 1 skipped as unchanged \\(public.customers\\).*"));
			await().atMost(Duration.ofSeconds(30))
				.until(() -> auditRows(page).stream()
					.anyMatch((row) -> row.contains("ci") && row.contains("slot.recreate")
							&& row.contains("done (200)")));
			assertThat(auditRows(page)).anyMatch((row) -> row.contains("slot.recreate") && row.contains("dry-run"));
			assertThat(auditRows(page)).anyMatch((row) -> row.contains("slot.recreate")
					&& row.contains("re-snapshot: signal ") && row.contains("skipped as unchanged: public.customers"));
			assertThat(browser.unexpectedProblems()).isEmpty();
		}
	}

	@Test
	void aViewerSeesNoButtonsAWrongTokenIsToldSoNoTokenIsInAUrlAndAnOutageIsSaid() {
		try (Browser browser = Browser.start()) {
			PageDriver page = new PageDriver(browser, this.port);
			page.open();
			page.signIn("not-a-configured-token");
			await().atMost(Duration.ofSeconds(15))
				.until(() -> page.text("sign-in-error").contains("The token was refused"));
			assertThat(page.driver().findElement(By.id("main")).isDisplayed()).isFalse();
			assertThat(sessionToken(page)).isNull();

			page.signIn(VIEWER);
			await().atMost(Duration.ofSeconds(30)).until(() -> page.loadedAt() != null);
			assertThat(page.text("who")).isEqualTo("Signed in as dashboard (viewer)");
			assertThat(page.driver().findElements(By.cssSelector("article[data-target='shop']"))).hasSize(1);
			assertThat(page.driver().findElements(By.cssSelector("#targets button"))).isEmpty();
			page.awaitRefresh();
			assertThat(page.driver().findElements(By.cssSelector("#targets button"))).isEmpty();

			assertThat(sessionToken(page)).isEqualTo(VIEWER);
			assertThat(page.driver().executeScript("return localStorage.length")).isEqualTo(0L);
			assertThat(page.driver().executeScript("return document.cookie")).isEqualTo("");
			List<String> urls = browser.requestedUrls();
			assertThat(urls).anyMatch((url) -> url.contains("/api/v1/overview"));
			assertThat(urls).noneMatch(
					(url) -> url.contains(VIEWER) || url.contains(OPERATOR) || url.contains("not-a-configured-token"));

			ChromiumNetworkConditions offline = new ChromiumNetworkConditions();
			offline.setOffline(true);
			page.driver().setNetworkConditions(offline);
			await().atMost(Duration.ofSeconds(30)).until(() -> page.text("freshness").startsWith("API unreachable"));
			assertThat(page.driver().findElements(By.cssSelector("article[data-target='shop']")))
				.as("the last data stays on screen, marked old")
				.hasSize(1);
			page.driver().deleteNetworkConditions();
			await().atMost(Duration.ofSeconds(30)).until(() -> page.text("freshness").startsWith("Updated"));
			assertThat(browser.unexpectedProblems("/api/v1/me .*status of 401", "ERR_INTERNET_DISCONNECTED")).isEmpty();
		}
	}

	private static Object sessionToken(PageDriver page) {
		return page.driver().executeScript("return sessionStorage.getItem('slotkeeper.token')");
	}

	@SuppressWarnings("unchecked")
	private static List<String> auditRows(PageDriver page) {
		return (List<String>) page.driver()
			.executeScript("return [...document.querySelectorAll('#audit-rows tr')]" + ".map((row) => row.innerText)");
	}

	private static boolean lostOnServer(String slot) {
		return "lost".equals(server().queryForString("postgres",
				"SELECT wal_status FROM pg_replication_slots WHERE slot_name = '" + slot + "'"));
	}

}
