package io.slotkeeper.watching;

import java.time.Clock;
import java.time.Instant;
import java.util.List;

import io.micrometer.core.instrument.MeterRegistry;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.slotkeeper.fleet.Target;
import io.slotkeeper.lanes.Lane;
import io.slotkeeper.replication.SlotView;
import io.slotkeeper.sessions.FailureDescription;

/**
 * What one target's last poll came to: the slots it read (or, after a failure, the last
 * ones read, marked by their age and the failure), its meters, and the lane its next run
 * takes (quick after a success, retry after a failure). A failure is logged once, when
 * the polls start failing, not at every poll.
 */
final class PollOutcome {

	private static final Logger logger = LoggerFactory.getLogger(PollOutcome.class);

	private final Target target;

	private final PollMeters meters;

	private volatile SlotSnapshot snapshot;

	private volatile Lane lane = Lane.CONNECT;

	PollOutcome(Target target, MeterRegistry registry, Clock clock) {
		this.target = target;
		this.meters = new PollMeters(target.name(), target.properties().slotsPollInterval(), registry, clock);
	}

	SlotSnapshot snapshot() {
		return this.snapshot;
	}

	Lane lane() {
		return this.lane;
	}

	void succeeded(Instant now, List<SlotView> slots) {
		this.meters.succeeded(now);
		this.lane = Lane.QUICK;
		this.snapshot = new SlotSnapshot(now, slots, null, now);
	}

	void failed(Throwable ex, Instant now) {
		this.lane = Lane.RETRY;
		this.meters.failed();
		FailureDescription failure = FailureDescription.of(ex, now);
		SlotSnapshot previous = this.snapshot;
		this.snapshot = new SlotSnapshot(now, (previous != null) ? previous.slots() : List.of(), failure,
				(previous != null) ? previous.lastGoodAt() : null);
		if (previous == null || previous.error() == null) {
			logger.warn("Reading the slots of target '{}' failed: {}; its slot gauges keep their last values",
					this.target.name(), failure.message());
		}
	}

}
