package io.slotkeeper.watching;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;

/**
 * One target's poll meters: {@code slotkeeper_slot_poll_age_seconds} (since the last good
 * poll, or since start before the first), {@code slotkeeper_slot_poll_failures_total} and
 * {@code slotkeeper_slot_poll_interval_seconds}, for an alert on a stale poll: the slot
 * gauges of a failed poll keep their last values, and this says how old they are.
 */
final class PollMeters {

	private final Counter failures;

	private final Clock clock;

	private volatile Instant lastGood;

	PollMeters(String target, Duration interval, MeterRegistry registry, Clock clock) {
		this.clock = clock;
		this.lastGood = clock.instant();
		Tags tags = Tags.of("target", target);
		this.failures = Counter.builder("slotkeeper.slot.poll.failures")
			.description("Slot polls that failed")
			.tags(tags)
			.register(registry);
		Gauge.builder("slotkeeper.slot.poll.age", this, PollMeters::ageSeconds)
			.description("Seconds since the target's slots were last read; the slot gauges are that old")
			.baseUnit("seconds")
			.tags(tags)
			.register(registry);
		Gauge.builder("slotkeeper.slot.poll.interval", interval, (value) -> value.toNanos() / 1e9)
			.description("How often the target's slots are read")
			.baseUnit("seconds")
			.tags(tags)
			.register(registry);
	}

	void succeeded(Instant at) {
		this.lastGood = at;
	}

	void failed() {
		this.failures.increment();
	}

	Instant lastGood() {
		return this.lastGood;
	}

	private double ageSeconds() {
		return Math.max(0, Duration.between(this.lastGood, this.clock.instant()).toMillis() / 1000.0);
	}

}
