package io.slotkeeper.settings;

import java.util.Comparator;
import java.util.List;

/**
 * One thing the settings audit found, in words.
 *
 * @param setting the setting it is about, as {@code pg_settings} names it
 * @param value the setting's value with its unit, as the server shows it
 * @param severity {@code critical} (a slot is lost or cannot work as things stand),
 * {@code warning} (a plausible event loses a slot or fills the disk) or {@code info}
 * @param message what it means for the target's slots and what to do
 */
public record SettingFinding(String setting, String value, String severity, String message) {

	/** A slot is lost or cannot work as things stand. */
	public static final String CRITICAL = "critical";

	/** A plausible event loses a slot or fills the disk. */
	public static final String WARNING = "warning";

	/** Worth knowing; nothing is lost. */
	public static final String INFO = "info";

	/** Every severity, the most severe first. */
	public static final List<String> SEVERITIES = List.of(CRITICAL, WARNING, INFO);

	/**
	 * Findings by severity: critical, warning, info.
	 */
	public static final Comparator<SettingFinding> MOST_SEVERE_FIRST = Comparator
		.comparing((finding) -> SEVERITIES.indexOf(finding.severity()));

}
