package io.slotkeeper.support;

import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class SteadyGaugeTests {

	private final MeterRegistry registry = new SimpleMeterRegistry();

	private final SteadyGauge gauge = new SteadyGauge("slotkeeper.test", "a test", null, this.registry);

	@Test
	void aNewReadingChangesTheSeriesInPlace() {
		this.gauge.set(Map.of(Tags.of("slot", "a"), 1, Tags.of("slot", "b"), 5));
		Gauge before = this.registry.get("slotkeeper.test").tags("slot", "a").gauge();
		this.gauge.set(Map.of(Tags.of("slot", "a"), 2));
		Gauge after = this.registry.get("slotkeeper.test").tags("slot", "a").gauge();
		assertThat(after).as("the same series, never removed").isSameAs(before);
		assertThat(after.value()).isEqualTo(2.0);
		assertThat(this.registry.find("slotkeeper.test").tags("slot", "b").gauge()).as("gone from the reading")
			.isNull();
		this.gauge.clear();
		assertThat(this.registry.find("slotkeeper.test").gauges()).isEmpty();
	}

	// What a Prometheus scrape during a poll sees: the series of a slot that stays is
	// there at every look.
	@Test
	void aScrapeDuringReadingsAlwaysFindsASeriesThatStays() throws InterruptedException {
		this.gauge.set(Map.of(Tags.of("slot", "a"), 0));
		AtomicBoolean done = new AtomicBoolean();
		AtomicInteger missed = new AtomicInteger();
		Thread scraper = new Thread(() -> {
			while (!done.get()) {
				if (this.registry.find("slotkeeper.test").tags("slot", "a").gauge() == null) {
					missed.incrementAndGet();
				}
			}
		});
		scraper.start();
		for (int reading = 1; reading <= 20_000; reading++) {
			this.gauge.set(Map.of(Tags.of("slot", "a"), reading));
		}
		done.set(true);
		scraper.join();
		assertThat(missed).hasValue(0);
		assertThat(this.registry.get("slotkeeper.test").gauge().value()).isEqualTo(20_000.0);
	}

}
