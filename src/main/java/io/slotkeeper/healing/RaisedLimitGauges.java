package io.slotkeeper.healing;

import java.time.Clock;
import java.util.function.ToLongFunction;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;

import io.slotkeeper.outage.KeepSizeGuard;
import io.slotkeeper.settings.RaisedLimit;

/**
 * The gauges of a WAL-limit raise, per target and present from the start (0 while none
 * stands): how long the raise of the target's server has stood, and how long it has stood
 * with no consumer needing it. Only the server's lead target, on the instance that acts
 * for it, shows a raise, so that an alert fires once per server.
 */
final class RaisedLimitGauges {

	private RaisedLimitGauges() {
	}

	static void register(String target, KeepSizeGuard guard, MeterRegistry registry, Clock clock) {
		gauge("slotkeeper.server.keep.size.raise",
				"Seconds slot-keeper's raise of the server's max_slot_wal_keep_size"
						+ " has stood (on the server's lead target), 0 when none stands",
				target, guard, registry, (raise) -> raise.ageSeconds(clock.instant()));
		gauge("slotkeeper.server.keep.size.raise.unneeded",
				"Seconds the raise of the server's max_slot_wal_keep_size"
						+ " has stood with every consumer reading again: past a few minutes its put-back is stuck",
				target, guard, registry, (raise) -> raise.unneededSeconds(clock.instant()));
	}

	private static void gauge(String name, String description, String target, KeepSizeGuard guard,
			MeterRegistry registry, ToLongFunction<RaisedLimit> value) {
		Gauge.builder(name, () -> guard.raisedLimit(target).map(value::applyAsLong).orElse(0L))
			.description(description)
			.baseUnit("seconds")
			.tag("target", target)
			.register(registry);
	}

}
