package io.slotkeeper.overview;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

import io.slotkeeper.config.TargetProperties;
import io.slotkeeper.heartbeat.HeartbeatStatus;
import io.slotkeeper.slot.watching.SlotSnapshot;

/**
 * What is wrong with a target itself: its heartbeat failing or stale, its slots unread, unreadable or stale.
 */
final class TargetFindings {

	private TargetFindings() {
	}

	static List<Finding> of(TargetProperties target, HeartbeatStatus heartbeat, SlotSnapshot snapshot, Instant now) {
		List<Finding> findings = new ArrayList<>();
		if (target.heartbeat().enabled()) {
			if ("DOWN".equals(heartbeat.health())) {
				findings.add(new Finding(Severity.DOWN, "heartbeat DOWN: " + heartbeat.reason()));
			}
			else if (stale(heartbeat.lastSuccessAt(), target.heartbeat().interval(), now)) {
				findings.add(new Finding(Severity.WARNING, "last heartbeat "
						+ Durations.words(Duration.between(heartbeat.lastSuccessAt(), now).toSeconds())
						+ " ago (interval " + target.heartbeat().interval().toSeconds() + " s)"));
			}
		}
		if (snapshot == null) {
			findings.add(new Finding(Severity.UNKNOWN, "slots not read yet"));
		}
		else if (snapshot.error() != null) {
			findings.add(new Finding(Severity.WARNING, "reading the slots failed: " + snapshot.error().message()
					+ ((snapshot.lastGoodAt() != null) ? " (shown as read at " + snapshot.lastGoodAt() + ")" : "")));
		}
		else if (stale(snapshot.at(), target.slotsPollInterval(), now)) {
			findings.add(new Finding(Severity.WARNING, "slots last read "
					+ Durations.words(Duration.between(snapshot.at(), now).toSeconds()) + " ago: the target is slow "
					+ "to answer"));
		}
		return findings;
	}

	// Three intervals and a second, as the slots health counts a poll stale.
	private static boolean stale(Instant last, Duration interval, Instant now) {
		return last != null && Duration.between(last, now).compareTo(interval.multipliedBy(3).plusSeconds(1)) > 0;
	}

}
