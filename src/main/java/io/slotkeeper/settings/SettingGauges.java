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
 * {@code slotkeeper_server_setting_findings{target,setting,severity}}: one series per finding of a target's last
 * settings audit, valued 1; a finding that is gone takes its series with it. Series are added and removed only when
 * the findings change, not re-registered with every poll, so that a scrape never meets one half replaced.
 */
public final class SettingGauges {

	private final String target;

	private final MeterRegistry registry;

	private final Map<Tags, Gauge> series = new HashMap<>();

	/**
	 * The gauges of one target.
	 * @param target the target's name
	 * @param registry where they are registered
	 */
	public SettingGauges(String target, MeterRegistry registry) {
		this.target = target;
		this.registry = registry;
	}

	/**
	 * Shows a poll's findings.
	 * @param current the findings
	 */
	public synchronized void update(List<SettingFinding> current) {
		Set<Tags> now = current.stream()
			.map((finding) -> Tags.of("target", this.target, "setting", finding.setting(), "severity",
					finding.severity()))
			.collect(Collectors.toSet());
		this.series.keySet().removeIf((tags) -> {
			boolean gone = !now.contains(tags);
			if (gone) {
				this.registry.remove(this.series.get(tags));
			}
			return gone;
		});
		now.forEach((tags) -> this.series.computeIfAbsent(tags, (added) -> Gauge.builder(
				"slotkeeper.server.setting.findings", () -> 1)
			.description("Findings of the settings audit of the target's server, by setting and severity (1 each)")
			.tags(added)
			.register(this.registry)));
	}

}
