package io.slotkeeper.heartbeat;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;


import io.micrometer.core.instrument.MeterRegistry;
import org.slf4j.LoggerFactory;

import org.springframework.util.backoff.BackOffExecution;
import org.springframework.util.backoff.BackOff;

import io.slotkeeper.config.TargetProperties;
import io.slotkeeper.target.AdvisoryLocks;
import io.slotkeeper.target.FailureDescription;
import io.slotkeeper.target.TargetConnector;
import io.slotkeeper.target.TargetSession;

/**
 * The heartbeat of one target: its session, its backoff, its status and its meters. One attempt runs at a time;
 * the scheduled one and one asked for through the API take turns.
 */
public class TargetHeartbeat implements AutoCloseable {


	private final TargetProperties target;

	private final TargetConnector connector;

	private final HeartbeatWriter writer;

	private final HeartbeatMetrics metrics;

	private final Clock clock;

	private final BackOff backOff;

	private final Instant startedAt;

	private final ReentrantLock lock = new ReentrantLock();

	private final FailureLog failureLog;

	private TargetSession session;

	private BackOffExecution backOffExecution;

	private boolean closed;

	private boolean owner;

	private volatile HeartbeatRecord record = HeartbeatRecord.EMPTY;

	private final RecentBeats recentBeats = new RecentBeats();

	/**
	 * Creates the heartbeat of a target; nothing connects until the first attempt.
	 * @param target the target
	 * @param connector opens sessions
	 * @param registry where the meters go
	 * @param clock the clock for timestamps
	 */
	public TargetHeartbeat(TargetProperties target, TargetConnector connector, MeterRegistry registry, Clock clock) {
		this.target = target;
		this.connector = connector;
		this.writer = HeartbeatWriter.of(target.heartbeat());
		this.clock = clock;
		this.startedAt = clock.instant();
		this.backOff = RetryDelays.of(target.heartbeat().backoff());
		this.failureLog = new FailureLog(target.name());
		this.metrics = new HeartbeatMetrics(registry, target.name(),
				target.heartbeat().enabled() ? target.heartbeat().interval() : null, this,
				(self) -> self.record.consecutiveFailures(), (self) -> self.record.lastSuccessEpochSeconds(),
				(self) -> Boolean.TRUE.equals(self.record.owner()) ? 1 : 0);
	}

	/**
	 * The target's name.
	 * @return the name
	 */
	public String name() {
		return this.target.name();
	}

	/**
	 * The target's configuration.
	 * @return the configuration
	 */
	public TargetProperties properties() {
		return this.target;
	}

	/**
	 * When the first scheduled heartbeat should run: soon, spread a little so that many targets do not start at once.
	 * @return the delay
	 */
	Duration firstDelay() {
		long spreadMillis = Math.min(this.target.heartbeat().interval().toMillis(), 1000);
		return Duration.ofMillis(ThreadLocalRandom.current().nextLong(spreadMillis + 1));
	}

	/**
	 * Runs one scheduled heartbeat, waiting for a manual one to finish first.
	 * @return the outcome; failures are recorded, never thrown
	 */
	HeartbeatOutcome beat() {
		this.lock.lock();
		try {
			return attempt(false);
		}
		finally {
			this.lock.unlock();
		}
	}

	/**
	 * Runs one heartbeat now, for an operator.
	 * @param wait how long to wait for a heartbeat already running
	 * @return the outcome; failures are recorded, never thrown
	 * @throws HeartbeatBusyException when the heartbeat already running does not finish in time
	 * @throws InterruptedException when interrupted while waiting
	 */
	HeartbeatOutcome beatNow(Duration wait) throws InterruptedException {
		if (!this.lock.tryLock(wait.toMillis(), TimeUnit.MILLISECONDS)) {
			throw new HeartbeatBusyException(name());
		}
		try {
			return attempt(true);
		}
		finally {
			this.lock.unlock();
		}
	}

	/**
	 * Records a failure that escaped {@link #beat()}, so that even an error keeps the schedule going.
	 * @param failure what escaped
	 * @return when to try again
	 */
	Duration recordEscaped(Throwable failure) {
		this.lock.lock();
		try {
			return failed(failure, Duration.ZERO).nextAttemptIn();
		}
		finally {
			this.lock.unlock();
		}
	}

	// A scheduled heartbeat writes only on the instance that owns the target; one asked for by an operator writes
	// anyway, since heartbeats from several instances are harmless.
	private HeartbeatOutcome attempt(boolean evenIfStandby) {
		long start = System.nanoTime();
		try {
			if (this.closed) {
				throw new IllegalStateException("slot-keeper is shutting down");
			}
			TargetSession current = session();
			if (!this.owner) {
				this.owner = AdvisoryLocks.tryLock(current.connection(), AdvisoryLocks.ownerKey(name()));
				this.record = this.record.owner(this.owner);
			}
			if (!this.owner && !evenIfStandby) {
				return standingBy(Duration.ofNanos(System.nanoTime() - start));
			}
			String lsn = this.writer.write(current.connection());
			if (this.target.heartbeat().standbySnapshot()) {
				logStandbySnapshot(current);
			}
			return succeeded(lsn, Duration.ofNanos(System.nanoTime() - start));
		}
		catch (Exception ex) {
			return failed(ex, Duration.ofNanos(System.nanoTime() - start));
		}
	}

	private TargetSession session() throws Exception {
		if (this.session == null) {
			this.metrics.connectionAttempted();
			this.record = this.record.connectionAttempted();
			TargetSession opened = this.connector.open(this.target);
			try {
				this.writer.prepare(opened.connection());
			}
			catch (Exception ex) {
				opened.close();
				throw ex;
			}
			this.session = opened;
			this.record = this.record.connected(opened.version());
		}
		return this.session;
	}

	private HeartbeatOutcome succeeded(String lsn, Duration took) {
		Instant now = this.clock.instant();
		HeartbeatRecord before = this.record;
		this.record = before.succeeded(lsn, now, took);
		if (lsn != null) {
			this.recentBeats.add(new WrittenBeat(lsn, now));
		}
		this.metrics.succeeded(took);
		this.backOffExecution = null;
		this.failureLog.succeeded(before.consecutiveFailures());
		Duration rest = this.target.heartbeat().interval().minus(took);
		return new HeartbeatOutcome(lsn, now, took, null, rest.isNegative() ? Duration.ZERO : rest);
	}

	// A refusal is reported once (status, health, one log line) and the heartbeat goes on without the snapshot.
	private void logStandbySnapshot(TargetSession current) {
		String outcome = StandbySnapshot.log(current, this.clock);
		if (!outcome.equals(this.record.standbySnapshot()) && !StandbySnapshot.OK.equals(outcome)) {
			LoggerFactory.getLogger(TargetHeartbeat.class)
				.warn("Standby snapshot for target '{}' {}; heartbeats go on without it", name(), outcome);
		}
		this.record = this.record.standbySnapshot(outcome);
	}

	private HeartbeatOutcome standingBy(Duration took) {
		this.backOffExecution = null;
		this.failureLog.succeeded(this.record.consecutiveFailures());
		Instant now = this.clock.instant();
		this.record = this.record.standingBy(now);
		return new HeartbeatOutcome(null, now, took, null, this.target.heartbeat().interval());
	}

	private HeartbeatOutcome failed(Throwable ex, Duration took) {
		dropSession();
		Instant now = this.clock.instant();
		FailureDescription failure = FailureDescription.of(ex, now);
		this.record = this.record.failed(failure);
		this.metrics.failed();
		if (this.backOffExecution == null) {
			this.backOffExecution = this.backOff.start();
		}
		Duration retry = Duration.ofMillis(this.backOffExecution.nextBackOff());
		this.failureLog.failed(failure, ex, retry, this.record.consecutiveFailures());
		return new HeartbeatOutcome(null, now, took, failure, retry);
	}

	private void dropSession() {
		if (this.session != null) {
			this.session.close();
			this.session = null;
			// The server releases a session's advisory locks with the session.
			this.owner = false;
			this.record = this.record.disconnected();
		}
	}

	/**
	 * The status as of now, with its health: DOWN after {@code unhealthy-after} consecutive failures or when no
	 * heartbeat succeeded for three intervals (counted from start before the first success).
	 * @return the status
	 */
	public HeartbeatStatus status() {
		return this.record.assess(this.target.heartbeat(), this.startedAt, this.clock.instant());
	}

	/**
	 * The heartbeats this instance wrote lately, oldest first.
	 * @return a copy
	 */
	public List<WrittenBeat> recentBeats() {
		return this.recentBeats.list();
	}

	/**
	 * Whether this instance owns the target: holds its owner lock, heartbeats and heals it.
	 * @return whether it owns the target now
	 */
	public boolean owner() {
		return Boolean.TRUE.equals(this.record.owner());
	}

	/**
	 * Ends the session; later attempts fail as shutting down.
	 */
	@Override
	public void close() {
		this.lock.lock();
		try {
			this.closed = true;
			dropSession();
		}
		finally {
			this.lock.unlock();
		}
	}

}
