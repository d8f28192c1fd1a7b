package io.slotkeeper.support;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.MultiGauge;
import io.micrometer.core.instrument.Tags;

/**
 * A gauge of many series, one per set of tags, whose series stay registered from one
 * reading to the next: a reading changes their values in place, adds the new ones and
 * removes those it no longer has. (A {@link MultiGauge} given each reading with
 * {@code overwrite} removes every series and registers it again, and a scrape in between
 * finds the series, or the whole metric, gone: a gap in every graph, and an alert on its
 * absence fired for nothing.)
 */
public final class SteadyGauge {

	private final MultiGauge gauge;

	private final Map<Tags, Double> values = new ConcurrentHashMap<>();

	/**
	 * Registers the gauge, with no series yet.
	 * @param name the metric's name
	 * @param description its description
	 * @param baseUnit its unit, {@code null} for none
	 * @param registry where it is registered
	 */
	public SteadyGauge(String name, String description, String baseUnit, MeterRegistry registry) {
		MultiGauge.Builder builder = MultiGauge.builder(name).description(description);
		this.gauge = ((baseUnit != null) ? builder.baseUnit(baseUnit) : builder).register(registry);
	}

	/**
	 * Takes a reading: these series, with these values, and no others.
	 * @param reading each series' tags and value
	 */
	public void set(Map<Tags, ? extends Number> reading) {
		reading.forEach((tags, value) -> this.values.put(tags, value.doubleValue()));
		this.gauge.register(reading.keySet()
			.stream().<MultiGauge
					.Row<?>>map(
							(tags) -> MultiGauge.Row.of(tags, this.values,
									(current) -> current.getOrDefault(tags, Double.NaN)))
			.toList(), false);
		this.values.keySet().retainAll(reading.keySet());
	}

	/**
	 * Removes every series.
	 */
	public void clear() {
		set(Map.of());
	}

}
