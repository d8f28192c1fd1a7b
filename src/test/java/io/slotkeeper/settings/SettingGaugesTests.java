package io.slotkeeper.settings;

import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class SettingGaugesTests {

	private final SimpleMeterRegistry registry = new SimpleMeterRegistry();

	private final SettingGauges gauges = SettingGauges.connectors(this.registry);

	private final Tags resting = Tags.of("target", "orders", "slot", "debezium", "connector", "");

	private final Tags connector = Tags.of("target", "orders", "slot", "debezium", "connector", "orders-debezium");

	@Test
	void everySubjectHasAZeroSeriesPerSeverityBeforeAnyFindingAndKeepsThemBesideAndAfterOne() {
		this.gauges.update(Map.of(), Set.of(this.resting));

		assertThat(series()).containsExactly(Map.entry("critical", 0.0), Map.entry("info", 0.0),
				Map.entry("warning", 0.0));

		this.gauges.update(Map.of(this.connector, List.of(new SettingFinding("tombstones.on.delete", "false",
				SettingFinding.WARNING, "deletes leave no tombstone"))), Set.of(this.resting));

		assertThat(series()).containsExactly(Map.entry("critical", 0.0), Map.entry("info", 0.0),
				Map.entry("tombstones.on.delete/warning", 1.0), Map.entry("warning", 0.0));

		this.gauges.update(Map.of(this.connector, List.of()), Set.of(this.resting));

		assertThat(series()).containsExactly(Map.entry("critical", 0.0), Map.entry("info", 0.0),
				Map.entry("warning", 0.0));
	}

	@Test
	void aSubjectNoLongerConcernedTakesItsRestingSeriesWithIt() {
		this.gauges.update(Map.of(), Set.of(this.resting));

		this.gauges.update(Map.of(), Set.of());

		assertThat(series()).isEmpty();
	}

	// Each series by its setting and severity, the resting ones by their severity alone.
	private Map<String, Double> series() {
		Map<String, Double> series = new TreeMap<>();
		for (Gauge gauge : this.registry.find("slotkeeper.connector.setting.findings").gauges()) {
			String setting = gauge.getId().getTag("setting");
			String severity = gauge.getId().getTag("severity");
			series.put(setting.isEmpty() ? severity : setting + "/" + severity, gauge.value());
		}
		return series;
	}

}
