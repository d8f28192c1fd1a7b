package io.slotkeeper.settings;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;

/**
 * One series per finding of an audit, valued 1, tagged with what the finding is about and
 * its {@code setting} and {@code severity}; a finding that is gone takes its series with
 * it. Series are added and removed only when the findings change, not re-registered with
 * every poll, so that a scrape never meets one half replaced. The server settings audit's
 * are {@code slotkeeper_server_setting_findings{target,setting,severity}}, the connector
 * settings audit's
 * {@code slotkeeper_connector_setting_findings{target,slot,connector,setting,severity}}.
 */
public final class SettingGauges {

	private final String meter;

	private final String description;

	private final Tags base;

	private final MeterRegistry registry;

	private final Map<Tags, Gauge> series = new HashMap<>();

	/**
	 * The gauges of a target's server settings audit.
	 * @param target the target's name
	 * @param registry where they are registered
	 */
	public SettingGauges(String target, MeterRegistry registry) {
		this("slotkeeper.server.setting.findings",
				"Findings of the settings audit of the target's server, by setting and severity (1 each)",
				Tags.of("target", target), registry);
	}

	private SettingGauges(String meter, String description, Tags base, MeterRegistry registry) {
		this.meter = meter;
		this.description = description;
		this.base = base;
		this.registry = registry;
	}

	/**
	 * The gauges of the connector settings audit, each series tagged with its connector's
	 * target, slot and name.
	 * @param registry where they are registered
	 * @return the gauges
	 */
	public static SettingGauges connectors(MeterRegistry registry) {
		return new SettingGauges("slotkeeper.connector.setting.findings",
				"Findings of the connector settings audit,"
						+ " by the connector's target, slot and name, setting and severity (1 each)",
				Tags.empty(), registry);
	}

	/**
	 * Shows a poll's findings of the target's server.
	 * @param current the findings
	 */
	public void update(List<SettingFinding> current) {
		update(Map.of(this.base, current));
	}

	/**
	 * Shows an audit's findings, each with the tags of what it is about.
	 * @param current the findings by the tags of what they are about, such as a
	 * connector's target, slot and name
	 */
	public synchronized void update(Map<Tags, List<SettingFinding>> current) {
		Set<Tags> now = current.entrySet()
			.stream()
			.flatMap((about) -> about.getValue()
				.stream()
				.map((finding) -> about.getKey().and("setting", finding.setting(), "severity", finding.severity())))
			.collect(Collectors.toSet());
		this.series.keySet().removeIf((tags) -> {
			boolean gone = !now.contains(tags);
			if (gone) {
				this.registry.remove(this.series.get(tags));
			}
			return gone;
		});
		now.forEach((tags) -> this.series.computeIfAbsent(tags,
				(added) -> Gauge.builder(this.meter, () -> 1)
					.description(this.description)
					.tags(added)
					.register(this.registry)));
	}

}
