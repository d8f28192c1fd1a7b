package io.slotkeeper.overview;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import io.slotkeeper.config.TargetProperties;
import io.slotkeeper.heartbeat.HeartbeatStatus;
import io.slotkeeper.lanes.LaneWatch;
import io.slotkeeper.settings.RaisedLimit;
import io.slotkeeper.watching.SlotSnapshot;

/**
 * What is wrong with a target itself: its heartbeat DOWN (failing or stale), its slots
 * unread, unreadable or stale, a round of one of its lanes past its bound, its server's
 * WAL-limit raise standing with no consumer needing it.
 */
final class TargetFindings {

	private TargetFindings() {
	}

	static List<Finding> of(TargetProperties target, HeartbeatStatus heartbeat, SlotSnapshot snapshot,
			List<LaneWatch.Overdue> overdue, Optional<RaisedLimit> raise, Instant now) {
		List<Finding> findings = new ArrayList<>();
		overdue.forEach((round) -> findings.add(new Finding(Severity.WARNING,
				"a round of lane " + round.lane() + " has not finished after " + round.running().toSeconds()
						+ " s (its bound is " + round.bound().toSeconds()
						+ " s): interrupted, the lane goes on without it")));
		raise.filter((limit) -> limit.unneededSince() != null)
			.ifPresent((limit) -> findings.add(new Finding(limit.overdue(now) ? Severity.DOWN : Severity.WARNING,
					"max_slot_wal_keep_size raised to " + limit.toMegabytes() + "MB "
							+ Durations.words(limit.ageSeconds(now)) + " ago: " + limit.unneededNote(now))));
		// The heartbeat's health already counts a stale beat as DOWN, and knows that an
		// instance standing by for
		// another one's beats is not stale.
		if ("DOWN".equals(heartbeat.health())) {
			findings.add(new Finding(Severity.DOWN, "heartbeat DOWN: " + heartbeat.reason()));
		}
		if (snapshot == null) {
			findings.add(new Finding(Severity.UNKNOWN, "slots not read yet"));
		}
		else if (snapshot.error() != null) {
			findings.add(new Finding(Severity.WARNING, "reading the slots failed: " + snapshot.error().message()
					+ ((snapshot.lastGoodAt() != null) ? " (shown as read at " + snapshot.lastGoodAt() + ")" : "")));
		}
		else if (snapshot.stale(target.slotsPollInterval(), now)) {
			findings.add(new Finding(Severity.WARNING,
					"slots last read " + Durations.words(Duration.between(snapshot.at(), now).toSeconds())
							+ " ago: the target is slow " + "to answer"));
		}
		return findings;
	}

}
