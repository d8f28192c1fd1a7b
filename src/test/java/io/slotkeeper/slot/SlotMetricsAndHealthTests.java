package io.slotkeeper.slot;

import java.time.Duration;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;

import io.slotkeeper.testbed.Scrape;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

class SlotMetricsAndHealthTests extends SlotApiTestSupport {

	@Test
	void slotMetricsAppearWithTheSlotAndDisappearWithIt() {
		createSlot("metered");
		// Right after this shared application resumes from Spring's context cache, its
		// first polls may take a while.
		await().atMost(Duration.ofSeconds(20)).untilAsserted(() -> {
			String scrape = scrape();
			assertThat(value(scrape, "slotkeeper_slot_retained_wal_bytes", "metered", "")).isGreaterThanOrEqualTo(0);
			assertThat(value(scrape, "slotkeeper_slot_safe_wal_size_bytes", "metered", "")).isPositive();
			assertThat(value(scrape, "slotkeeper_slot_active", "metered", "")).isZero();
			assertThat(value(scrape, "slotkeeper_slot_wal_status", "metered", ",wal_status=\"reserved\"")).isEqualTo(1);
			assertThat(value(scrape, "slotkeeper_slot_wal_status", "metered", ",wal_status=\"lost\"")).isZero();
			assertThat(value(scrape, "slotkeeper_slot_inactive_seconds", "metered", "")).isGreaterThanOrEqualTo(0);
		});
		server().execute(DATABASE, "SELECT pg_drop_replication_slot('metered')");
		// Target norepl reads the same database every 30 s and may have seen the slot
		// too: main's meters are the ones.
		await().atMost(Duration.ofSeconds(10))
			.untilAsserted(() -> assertThat(scrape())
				.doesNotContain("slot=\"metered\",slot_type=\"logical\",target=\"main\""));
	}

	@Test
	void anIdleSlotsTransactionIdAgeGrowsWithEveryTransactionPastIt() {
		createSlot("aging");
		for (int i = 0; i < 50; i++) {
			server().execute(DATABASE, "SELECT txid_current()");
		}
		await().atMost(Duration.ofSeconds(20))
			.untilAsserted(() -> assertThat(value(scrape(), "slotkeeper_slot_xid_age_transactions", "aging", ""))
				.isGreaterThanOrEqualTo(50));
		viewer().get()
			.uri("/api/v1/targets/main/slots/aging")
			.exchange()
			.expectBody()
			.jsonPath("$.xidAgeTransactions")
			.value((age) -> assertThat(((Number) age).longValue()).isGreaterThanOrEqualTo(50));
		server().execute(DATABASE, "SELECT pg_drop_replication_slot('aging')");
	}

	@Test
	void lostSlotTurnsSlotsHealthDownAndRecreateCountsAndHeals() {
		createSlot("fragile");
		loseSlot("fragile");
		await().atMost(Duration.ofSeconds(10))
			.untilAsserted(() -> client().get()
				.uri("/actuator/health/slots/main")
				.exchange()
				.expectStatus()
				.isEqualTo(503)
				.expectBody()
				.jsonPath("$.status")
				.isEqualTo("DOWN")
				.jsonPath("$.details.invalidated")
				.value((lost) -> assertThat(lost.toString()).contains("fragile")));
		client().get().uri("/actuator/health/readiness").exchange().expectStatus().isOk();
		operator().post().uri("/api/v1/targets/main/slots/fragile/recreate").exchange().expectStatus().isOk();
		await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> {
			String scrape = scrape();
			assertThat(Pattern
				.compile("(?m)^slotkeeper_slot_recreations_total\\{database=\"" + DATABASE
						+ "\",node=\"primary\",slot=\"fragile\",slot_type=\"logical\",target=\"main\"\\} 1\\.0$")
				.matcher(scrape)
				.find()).as("the recreation is counted on the primary node in\n%s", scrape).isTrue();
			assertThat(value(scrape, "slotkeeper_slot_wal_status", "fragile", 2, ",wal_status=\"reserved\""))
				.isEqualTo(1);
			// Of this target: the shared database's other target (norepl) never recreated
			// its fragile.
			assertThat(scrape).as("the first epoch's series are gone")
				.doesNotContain("lineage=\"1\",slot=\"fragile\",slot_type=\"logical\",target=\"main\"");
		});
		// The health stays DOWN while configured slots of this shared target are missing;
		// fragile is healthy again.
		await().atMost(Duration.ofSeconds(10))
			.untilAsserted(() -> client().get()
				.uri("/actuator/health/slots/main")
				.exchange()
				.expectBody()
				.jsonPath("$.details")
				.value((details) -> assertThat(String.valueOf(((java.util.Map<?, ?>) details).get("invalidated")))
					.doesNotContain("fragile")));
		server().execute(DATABASE, "SELECT pg_drop_replication_slot('fragile')");
	}

	private String scrape() {
		return Scrape.of(client());
	}

	private static double value(String scrape, String name, String slot, String extraTags) {
		return value(scrape, name, slot, 1, extraTags);
	}

	// The slot's epoch is a label: a recreated slot's meters are new series.
	private static double value(String scrape, String name, String slot, int lineage, String extraTags) {
		Matcher matcher = Pattern
			.compile("(?m)^" + Pattern.quote(name) + "\\{database=\"" + DATABASE + "\",lineage=\"" + lineage
					+ "\",slot=\"" + slot + "\",slot_type=\"logical\",target=\"main\"" + Pattern.quote(extraTags)
					+ "\\} (\\S+)$")
			.matcher(scrape);
		assertThat(matcher.find())
			.as("%s for slot %s%s in\n%s", name, slot, extraTags,
					scrape.lines().filter((line) -> line.startsWith("slotkeeper_slot")).toList())
			.isTrue();
		return Double.parseDouble(matcher.group(1));
	}

}
