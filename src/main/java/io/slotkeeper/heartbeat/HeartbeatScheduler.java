package io.slotkeeper.heartbeat;

import java.time.Duration;
import java.util.List;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.slotkeeper.config.HeartbeatProperties;
import io.slotkeeper.fleet.RepeatingTasks;

/**
 * Runs every enabled target's heartbeat on its own schedule ({@link RepeatingTasks}: a dead, slow or hung target holds
 * at most one worker of the retry lane and does not delay the targets that answer). On stop, heartbeats in flight finish.
 */
public class HeartbeatScheduler extends RepeatingTasks {

	private static final Logger logger = LoggerFactory.getLogger(HeartbeatScheduler.class);

	// A beat on an open session takes about a millisecond: a few threads serve a thousand targets at 1 s. Connecting
	// takes a few milliseconds, or the connect timeout for a target that does not answer; the retry lane bounds what
	// dead and hung targets cost (each holds one of its threads for its connect or statement timeout).
	private static final int QUICK_THREADS = 16;

	private static final int CONNECT_THREADS = 16;

	private static final int RETRY_THREADS = 8;

	private static final int LISTED = 10;

	private final List<TargetHeartbeat> targets;

	/**
	 * Creates the scheduler.
	 * @param targets every target; disabled ones are not scheduled
	 * @param shutdownWait how long stopping waits for heartbeats in flight
	 */
	public HeartbeatScheduler(List<TargetHeartbeat> targets, Duration shutdownWait) {
		super("heartbeat", shutdownWait, QUICK_THREADS, CONNECT_THREADS, RETRY_THREADS);
		this.targets = List.copyOf(targets);
	}

	@Override
	protected List<TargetHeartbeat> tasks() {
		List<TargetHeartbeat> enabled = this.targets.stream()
			.filter((t) -> t.target().properties().heartbeat().enabled())
			.toList();
		if (this.targets.isEmpty()) {
			logger.warn("No targets are configured (slotkeeper.targets is empty): slot-keeper idles");
		}
		else {
			// A thousand targets would make one unreadable line: the first few stand for the rest.
			List<String> described = enabled.stream().limit(LISTED).map(HeartbeatScheduler::describe).toList();
			logger.info("Heartbeating {} of {} targets: {}{}", enabled.size(), this.targets.size(), described,
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
