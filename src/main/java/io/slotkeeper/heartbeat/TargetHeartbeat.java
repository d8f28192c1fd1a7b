package io.slotkeeper.heartbeat;

import java.time.Clock;
import java.time.Duration;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;

import io.micrometer.core.instrument.MeterRegistry;

import io.slotkeeper.config.HeartbeatProperties;
import io.slotkeeper.fleet.Target;
import io.slotkeeper.lanes.Lane;
import io.slotkeeper.lanes.RepeatingTask;
import io.slotkeeper.problem.ProblemException;
import io.slotkeeper.problem.ProblemKind;
import io.slotkeeper.sessions.NodeConnector;

/**
 * The heartbeat of one target: when its attempts ({@link HeartbeatAttempts}) run. One
 * attempt runs at a time; the scheduled one and one asked for through the API take turns.
 */
public class TargetHeartbeat implements RepeatingTask, AutoCloseable {

	private final Target target;

	private final HeartbeatProperties settings;

	private final HeartbeatAttempts attempts;

	private final ReentrantLock lock = new ReentrantLock();

	private volatile Lane lane = Lane.CONNECT;

	/**
	 * Creates the heartbeat of a target; nothing connects until the first attempt.
	 * @param target the target
	 * @param connector opens sessions
	 * @param registry where the meters go
	 * @param clock the clock for timestamps
	 */
	public TargetHeartbeat(Target target, NodeConnector connector, MeterRegistry registry, Clock clock) {
		this.target = target;
		this.settings = target.properties().heartbeat();
		this.attempts = new HeartbeatAttempts(target, connector, registry, clock);
	}

	/**
	 * @return the target this heartbeat writes into
	 */
	public Target target() {
		return this.target;
	}

	@Override
	public String about() {
		return this.target.name();
	}

	/**
	 * @return when the first scheduled heartbeat runs: spread over the first interval (at
	 * most 10 s), so that many targets do not connect at once
	 */
	@Override
	public Duration firstDelay() {
		long spreadMillis = this.settings.cadence().firstBeatSpread().toMillis();
		return Duration.ofMillis(ThreadLocalRandom.current().nextLong(spreadMillis + 1));
	}

	/**
	 * Runs one heartbeat now, for an operator.
	 * @param wait how long to wait for a heartbeat already running
	 * @return the outcome; failures are recorded, never thrown
	 * @throws ProblemException ({@link ProblemKind#HEARTBEAT_BUSY}) when the heartbeat
	 * already running does not finish in time
	 * @throws InterruptedException when interrupted while waiting
	 */
	HeartbeatOutcome beatNow(Duration wait) throws InterruptedException {
		if (!this.lock.tryLock(wait.toMillis(), TimeUnit.MILLISECONDS)) {
			throw new ProblemException(ProblemKind.HEARTBEAT_BUSY,
					"A heartbeat to target '" + this.target.name() + "' is still running; try again shortly.")
				.with("target", this.target.name());
		}
		try {
			return this.attempts.beat(true);
		}
		finally {
			this.lock.unlock();
		}
	}

	/**
	 * Runs one scheduled heartbeat, or the standby snapshot that follows one once its
	 * consumers confirmed it.
	 * @return when to run next
	 */
	@Override
	public Duration run() {
		this.lock.lock();
		try {
			return this.attempts.scheduled();
		}
		finally {
			this.lane = this.attempts.lane();
			this.lock.unlock();
		}
	}

	@Override
	public Lane lane() {
		return this.lane;
	}

	/**
	 * Records a failure that escaped {@link #run()}, so that even an error keeps the
	 * schedule going.
	 */
	@Override
	public Duration escaped(Throwable failure) {
		this.lock.lock();
		try {
			return this.attempts.failed(failure, Duration.ZERO).nextAttemptIn();
		}
		finally {
			this.lock.unlock();
		}
	}

	/**
	 * The status as of now, with its health: DOWN after {@code unhealthy-after}
	 * consecutive failures or when no heartbeat succeeded for three intervals (counted
	 * from start before the first success).
	 * @return the status
	 */
	public HeartbeatStatus status() {
		return this.attempts.status();
	}

	/**
	 * Ends the session; later attempts fail as shutting down.
	 */
	@Override
	public void close() {
		this.lock.lock();
		try {
			this.attempts.close();
		}
		finally {
			this.lock.unlock();
		}
	}

}
