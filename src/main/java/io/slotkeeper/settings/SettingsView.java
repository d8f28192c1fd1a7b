package io.slotkeeper.settings;

import java.time.Instant;
import java.util.List;
import java.util.Map;

/**
 * A target's server settings as its last poll read and judged them.
 *
 * @param target the target
 * @param readAt when they were read
 * @param walBytesPerSecond the WAL the server wrote per second over the last hour of
 * polls; {@code null} before two polls
 * @param settings each audited setting the server's version has, with its unit
 * @param slotsInUse replication slots that exist
 * @param walSendersInUse WAL senders running
 * @param findings what is wrong or risky, the most severe first
 * @param gapCopies of the replication slots, the copies slot-keeper's gap journals read
 */
public record SettingsView(String target, Instant readAt, Double walBytesPerSecond, Map<String, String> settings,
		int slotsInUse, int walSendersInUse, List<SettingFinding> findings, int gapCopies) {
}
