package io.slotkeeper.heartbeat;

import java.time.Duration;
import java.util.List;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.slotkeeper.config.HeartbeatProperties;
import io.slotkeeper.fleet.Fleet;
import io.slotkeeper.fleet.FleetListener;
import io.slotkeeper.fleet.Target;
import io.slotkeeper.lanes.LaneWatch;
import io.slotkeeper.lanes.RepeatingTasks;

/**
 * Runs every enabled target's heartbeat on its own schedule ({@link RepeatingTasks}: a
 * dead, slow or hung target holds at most one worker of the retry lane and does not delay
 * the targets that answer). On stop, heartbeats in flight finish.
 */
public class HeartbeatScheduler extends RepeatingTasks implements FleetListener {

	private static final Logger logger = LoggerFactory.getLogger(HeartbeatScheduler.class);

	// A beat on an open session takes about a millisecond: a few threads serve a thousand
	// targets at 1 s. Connecting
	// takes a few milliseconds, or the connect timeout for a target that does not answer;
	// the retry lane bounds what
	// dead and hung targets cost (each holds one of its threads for its connect or
	// statement timeout).
	private static final int QUICK_THREADS = 16;

	private static final int CONNECT_THREADS = 16;

	private static final int RETRY_THREADS = 8;

	private static final int LISTED = 10;

	private final Heartbeats heartbeats;

	private final boolean changes;

	/**
	 * Creates the scheduler of every target's heartbeat, the fleet's targets now and
	 * those that join later.
	 * @param heartbeats the heartbeats; disabled ones are not scheduled
	 * @param fleet the fleet, watched
	 * @param shutdownWait how long stopping waits for heartbeats in flight
	 */
	public HeartbeatScheduler(Heartbeats heartbeats, Fleet fleet, Duration shutdownWait, LaneWatch lanes) {
		super("heartbeat", shutdownWait, lanes, QUICK_THREADS, CONNECT_THREADS, RETRY_THREADS);
		this.heartbeats = heartbeats;
		this.changes = fleet.changes();
		fleet.watch(this);
	}

	@Override
	public void joined(Target target) {
		TargetHeartbeat heartbeat = this.heartbeats.of(target);
		if (heartbeat != null && target.properties().heartbeat().enabled()) {
			joined(heartbeat);
		}
	}

	@Override
	public void left(Target target) {
		TargetHeartbeat heartbeat = this.heartbeats.of(target);
		if (heartbeat != null) {
			left(heartbeat);
		}
	}

	@Override
	protected List<TargetHeartbeat> tasks() {
		List<TargetHeartbeat> all = this.heartbeats.all();
		List<TargetHeartbeat> enabled = all.stream()
			.filter((t) -> t.target().properties().heartbeat().enabled())
			.toList();
		if (all.isEmpty() && this.changes) {
			logger.info("No targets yet: the configured servers' databases are heartbeated as they are found");
		}
		else if (all.isEmpty()) {
			logger.warn("No targets are configured (slotkeeper.targets is empty): slot-keeper idles");
		}
		else {
			// A thousand targets would make one unreadable line: the first few stand for
			// the rest.
			List<String> described = enabled.stream().limit(LISTED).map(HeartbeatScheduler::describe).toList();
			logger.info("Heartbeating {} of {} targets: {}{}", enabled.size(), all.size(), described,
					(enabled.size() > LISTED) ? " and " + (enabled.size() - LISTED) + " more" : "");
		}
		return enabled;
	}

	private static String describe(TargetHeartbeat target) {
		HeartbeatProperties settings = target.target().properties().heartbeat();
		return target.target().name() + " (" + settings.mode().name().toLowerCase() + " every "
				+ settings.interval().toMillis() + " ms)";
	}

}
