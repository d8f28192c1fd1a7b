package io.slotkeeper.fleet;

import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;

/**
 * Removes every meter of a target that left the fleet (those tagged with its name), so
 * that a retired database's series end instead of keeping their last values. Watching
 * first, it is told last, when nothing updates them anymore.
 */
final class TargetMeters implements FleetListener {

	private final MeterRegistry registry;

	TargetMeters(MeterRegistry registry) {
		this.registry = registry;
	}

	@Override
	public void joined(Target target) {
	}

	@Override
	public void left(Target target) {
		this.registry.getMeters()
			.stream()
			.filter((meter) -> target.name().equals(meter.getId().getTag("target")))
			.forEach((Meter meter) -> this.registry.remove(meter));
	}

}
