package io.slotkeeper.settings;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;

/**
 * One series per finding of an audit, valued 1, tagged with what the finding is about and
 * its {@code setting} and {@code severity}; a finding that is gone takes its series with
 * it. Beside them, every subject the audit concerns has a resting series per severity,
 * valued 0, its {@code setting} (and a connector's {@code connector}) empty: the metric
 * exists from the start, so that a panel or an {@code absent()} rule reads 0, not "no
 * data", before the first finding. Series are added and removed only when the findings
 * change, not re-registered with every poll, so that a scrape never meets one half
 * replaced. The server settings audit's are
 * {@code slotkeeper_server_setting_findings{target,setting,severity}} (subject: the
 * target), the connector settings audit's
 * {@code slotkeeper_connector_setting_findings{target,slot,connector,setting,severity}}
 * (subject: each slot of the target).
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
		update(Map.of(this.base, current), Set.of(this.base));
	}

	/**
	 * Shows an audit's findings, each with the tags of what it is about, and the resting
	 * series of every subject.
	 * @param current the findings by the tags of what they are about, such as a
	 * connector's target, slot and name
	 * @param subjects the tags of every subject the audit concerns, found or not: their
	 * resting series (a connector's with an empty {@code connector})
	 */
	public synchronized void update(Map<Tags, List<SettingFinding>> current, Set<Tags> subjects) {
		Map<Tags, Integer> now = new HashMap<>();
		subjects.forEach((subject) -> SettingFinding.SEVERITIES
			.forEach((severity) -> now.put(subject.and("setting", "", "severity", severity), 0)));
		current.forEach((about, findings) -> findings
			.forEach((finding) -> now.put(about.and("setting", finding.setting(), "severity", finding.severity()), 1)));
		this.series.keySet().removeIf((tags) -> {
			boolean gone = !now.containsKey(tags);
			if (gone) {
				this.registry.remove(this.series.get(tags));
			}
			return gone;
		});
		now.forEach((tags, value) -> this.series.computeIfAbsent(tags,
				(added) -> Gauge.builder(this.meter, () -> value)
					.description(this.description)
					.tags(added)
					.register(this.registry)));
	}

}
