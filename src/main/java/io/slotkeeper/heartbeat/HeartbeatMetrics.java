package io.slotkeeper.heartbeat;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Stream;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.Timer;

import io.slotkeeper.config.HeartbeatProperties;
import io.slotkeeper.fleet.Ownership;
import io.slotkeeper.fleet.Target;

/**
 * The meters of one target's heartbeat, tagged {@code target}. In Prometheus they read
 * {@code slotkeeper_heartbeat_emissions_total}, {@code _failures_total},
 * {@code _connection_attempts_total}, {@code _consecutive_failures},
 * {@code _last_success_timestamp_seconds} (0 before the first success) and
 * {@code _duration_seconds} (successful heartbeats only), {@code _owner} and, for enabled
 * targets, {@code _interval_seconds}. Gauges read the heartbeat's state and the target's
 * ownership, never the heartbeat.
 */
final class HeartbeatMetrics {

	private static final Duration[] BUCKETS = Stream.of(5, 10, 25, 50, 100, 250, 500, 1000, 2500, 5000, 10_000, 30_000)
		.map(Duration::ofMillis)
		.toArray(Duration[]::new);

	private final Counter emissions;

	private final Counter failures;

	private final Counter connectionAttempts;

	private final Timer duration;

	HeartbeatMetrics(MeterRegistry registry, Target target, AtomicReference<HeartbeatState> state) {
		Tags tags = Tags.of("target", target.name());
		this.emissions = Counter.builder("slotkeeper.heartbeat.emissions")
			.description("Heartbeats written")
			.tags(tags)
			.register(registry);
		this.failures = Counter.builder("slotkeeper.heartbeat.failures")
			.description("Heartbeats that failed")
			.tags(tags)
			.register(registry);
		this.connectionAttempts = Counter.builder("slotkeeper.heartbeat.connection.attempts")
			.description("Connections opened or tried for heartbeats")
			.tags(tags)
			.register(registry);
		// Twelve fixed buckets rather than Micrometer's percentile histogram (dozens per
		// target): a thousand targets
		// must not make a scrape of tens of thousands of series.
		this.duration = Timer.builder("slotkeeper.heartbeat.duration")
			.description("Time a successful heartbeat took, connecting included")
			.tags(tags)
			.serviceLevelObjectives(BUCKETS)
			.register(registry);
		Gauge.builder("slotkeeper.heartbeat.consecutive.failures", state, (s) -> s.get().consecutiveFailures())
			.description("Failures since the last successful heartbeat")
			.tags(tags)
			.register(registry);
		Gauge.builder("slotkeeper.heartbeat.last.success.timestamp", state, (s) -> s.get().lastSuccessEpochSeconds())
			.description("When the last heartbeat succeeded, in seconds since the epoch; 0 before the first")
			.baseUnit("seconds")
			.tags(tags)
			.register(registry);
		Gauge.builder("slotkeeper.heartbeat.owner", target.ownership(), (Ownership owner) -> owner.owned() ? 1 : 0)
			.description("1 when this instance owns the target (heartbeats and heals it), 0 when it stands by")
			.tags(tags)
			.register(registry);
		HeartbeatProperties settings = target.properties().heartbeat();
		if (settings.enabled()) {
			// Alerts compare the time since the last success with each target's own
			// interval.
			Gauge.builder("slotkeeper.heartbeat.interval", settings.interval(), (value) -> value.toNanos() / 1e9)
				.description("The target's heartbeat interval; absent while its heartbeat is disabled")
				.baseUnit("seconds")
				.tags(tags)
				.register(registry);
		}
	}

	void connectionAttempted() {
		this.connectionAttempts.increment();
	}

	void succeeded(Duration took) {
		this.emissions.increment();
		this.duration.record(took);
	}

	void failed() {
		this.failures.increment();
	}

}
