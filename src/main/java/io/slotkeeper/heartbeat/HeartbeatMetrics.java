package io.slotkeeper.heartbeat;

import java.time.Duration;
import java.util.function.ToDoubleFunction;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.Timer;

/**
 * The meters of one target's heartbeat, tagged {@code target}. In Prometheus they read
 * {@code slotkeeper_heartbeat_emissions_total}, {@code _failures_total}, {@code _connection_attempts_total},
 * {@code _consecutive_failures}, {@code _last_success_timestamp_seconds} (0 before the first success) and
 * {@code _duration_seconds} (successful heartbeats only), {@code _owner} and, for enabled targets,
 * {@code _interval_seconds}.
 */
final class HeartbeatMetrics {

	private final Counter emissions;

	private final Counter failures;

	private final Counter connectionAttempts;

	private final Timer duration;

	<T> HeartbeatMetrics(MeterRegistry registry, String target, Duration interval, T state,
			ToDoubleFunction<T> consecutiveFailures, ToDoubleFunction<T> lastSuccessEpochSeconds,
			ToDoubleFunction<T> owner) {
		Tags tags = Tags.of("target", target);
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
		this.duration = Timer.builder("slotkeeper.heartbeat.duration")
			.description("Time a successful heartbeat took, connecting included")
			.tags(tags)
			.publishPercentileHistogram()
			.minimumExpectedValue(Duration.ofMillis(1))
			.maximumExpectedValue(Duration.ofSeconds(30))
			.register(registry);
		Gauge.builder("slotkeeper.heartbeat.consecutive.failures", state, consecutiveFailures)
			.description("Failures since the last successful heartbeat")
			.tags(tags)
			.register(registry);
		Gauge.builder("slotkeeper.heartbeat.last.success.timestamp", state, lastSuccessEpochSeconds)
			.description("When the last heartbeat succeeded, in seconds since the epoch; 0 before the first")
			.baseUnit("seconds")
			.tags(tags)
			.register(registry);
		Gauge.builder("slotkeeper.heartbeat.owner", state, owner)
			.description("1 when this instance owns the target (heartbeats and heals it), 0 when it stands by")
			.tags(tags)
			.register(registry);
		if (interval != null) {
			// Alerts compare the time since the last success with each target's own interval.
			Gauge.builder("slotkeeper.heartbeat.interval", interval, (value) -> value.toNanos() / 1e9)
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
