package io.slotkeeper.heartbeat;

import java.time.Duration;
import java.time.Instant;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;

import io.slotkeeper.ApplicationTestSupport;
import io.slotkeeper.testbed.Scrape;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

class HeartbeatMetricsTests extends ApplicationTestSupport {

	@Test
	void prometheusShowsEveryHeartbeatMetricPerTarget() {
		// This application is shared and may just have been resumed from Spring's context
		// cache: wait for a fresh beat.
		await().atMost(Duration.ofSeconds(15)).untilAsserted(() -> {
			String scrape = scrape();
			assertThat(value(scrape, "slotkeeper_heartbeat_emissions_total", "up")).isGreaterThanOrEqualTo(2);
			assertThat(value(scrape, "slotkeeper_heartbeat_failures_total", "down")).isGreaterThanOrEqualTo(2);
			assertThat(value(scrape, "slotkeeper_heartbeat_last_success_timestamp_seconds", "up"))
				.isGreaterThan(Instant.now().minusSeconds(10).getEpochSecond() * 1.0);
		});
		String scrape = scrape();
		assertThat(value(scrape, "slotkeeper_heartbeat_failures_total", "up")).isZero();
		assertThat(value(scrape, "slotkeeper_heartbeat_emissions_total", "down")).isZero();
		assertThat(value(scrape, "slotkeeper_heartbeat_consecutive_failures", "up")).isZero();
		assertThat(value(scrape, "slotkeeper_heartbeat_consecutive_failures", "down")).isGreaterThanOrEqualTo(2);
		// A session is reused from beat to beat. It is opened again only after it idled
		// past its idle_session_timeout,
		// as while Spring's test context cache pauses this shared application.
		assertThat(value(scrape, "slotkeeper_heartbeat_connection_attempts_total", "up")).isGreaterThanOrEqualTo(1)
			.isLessThan(value(scrape, "slotkeeper_heartbeat_emissions_total", "up"));
		assertThat(value(scrape, "slotkeeper_heartbeat_connection_attempts_total", "down")).isGreaterThanOrEqualTo(2);
		assertThat(value(scrape, "slotkeeper_heartbeat_last_success_timestamp_seconds", "up"))
			.isBetween(Instant.now().minusSeconds(60).getEpochSecond() * 1.0, Instant.now().getEpochSecond() + 1.0);
		assertThat(value(scrape, "slotkeeper_heartbeat_last_success_timestamp_seconds", "down")).isZero();
		assertThat(value(scrape, "slotkeeper_heartbeat_duration_seconds_count", "up")).isGreaterThanOrEqualTo(2);
		assertThat(value(scrape, "slotkeeper_heartbeat_duration_seconds_sum", "up")).isPositive();
		assertThat(value(scrape, "slotkeeper_heartbeat_interval_seconds", "up")).isEqualTo(0.2);
		assertThat(scrape).doesNotContain("slotkeeper_heartbeat_interval_seconds{target=\"idle\"}");
	}

	private String scrape() {
		return Scrape.of(client());
	}

	private static double value(String scrape, String name, String target) {
		Matcher matcher = Pattern.compile("(?m)^" + Pattern.quote(name) + "\\{target=\"" + target + "\"\\} (\\S+)$")
			.matcher(scrape);
		assertThat(matcher.find()).as("%s{target=\"%s\"} in the scrape", name, target).isTrue();
		return Double.parseDouble(matcher.group(1));
	}

}
