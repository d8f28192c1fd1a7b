package io.slotkeeper.connect;

import java.time.Instant;
import java.util.List;
import java.util.Map;

import io.slotkeeper.settings.SettingFinding;

/**
 * A connector's configuration as slot-keeper last read and judged it: what it sets
 * against what slot-keeper does to its slot (the heartbeat, the recreate's handover, the
 * re-snapshot).
 *
 * @param connector the connector's name
 * @param settings the settings judged ({@link FoundConnector#KEPT}), never its password
 * @param findings what the audit found, the most severe first; none when nothing is wrong
 * @param readAt when the configuration was read, {@code null} when it never was
 * @param error why the last read failed, {@code null} when it did not; the findings are
 * then those of the read before
 */
public record ConnectorAudit(String connector, Map<String, String> settings, List<SettingFinding> findings,
		Instant readAt, String error) {

	/**
	 * Keeps what was given.
	 */
	public ConnectorAudit {
		settings = Map.copyOf(settings);
		findings = List.copyOf(findings);
	}

}
