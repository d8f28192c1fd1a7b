package io.slotkeeper.overview;

import java.time.Instant;
import java.util.List;

import io.slotkeeper.settings.SettingFinding;

/**
 * One target at a glance: its heartbeat, its server and its primary's slots.
 *
 * @param name the target's name
 * @param severity the worst of its own and its slots' severities
 * @param problems what is wrong with it and its slots, in words, worst first
 * @param heartbeat its heartbeat
 * @param serverVersion the server's version as of the last connection
 * @param lastFailoverAt when this instance last noticed another server take over as
 * primary
 * @param slotsReadAt when the slots shown were read (the last good poll), {@code null}
 * before one
 * @param slotsError why the last poll failed (the slots shown are then those of the last
 * good one)
 * @param slots its primary's slots, the configured missing ones included
 * @param settings what the settings audit of its server found, the most severe first;
 * none before its first poll
 */
public record TargetSummary(String name, Severity severity, List<String> problems, Heartbeat heartbeat,
		String serverVersion, Instant lastFailoverAt, Instant slotsReadAt, String slotsError, List<SlotSummary> slots,
		List<SettingFinding> settings) {

	/**
	 * A target's heartbeat.
	 *
	 * @param enabled whether heartbeats are scheduled
	 * @param health {@code UP}, {@code DOWN} or {@code UNKNOWN}
	 * @param reason why DOWN
	 * @param mode the heartbeat mode
	 * @param interval the interval, ISO-8601
	 * @param lastSuccessAt when the last heartbeat succeeded
	 * @param owner whether this instance owns the target; {@code false} when another one
	 * does
	 * @param walFloor how much WAL an idle slot keeps at least, and why
	 */
	public record Heartbeat(boolean enabled, String health, String reason, String mode, String interval,
			Instant lastSuccessAt, Boolean owner, String walFloor) {
	}

}
