package io.slotkeeper.heartbeat;

import java.time.Clock;
import java.time.Duration;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;

import io.micrometer.core.instrument.MeterRegistry;

import io.slotkeeper.config.HeartbeatProperties;
import io.slotkeeper.fleet.Lane;
import io.slotkeeper.fleet.NodeConnector;
import io.slotkeeper.fleet.RepeatingTask;
import io.slotkeeper.fleet.Target;
import io.slotkeeper.problem.ProblemException;
import io.slotkeeper.problem.ProblemKind;

/**
 * The heartbeat of one target: its attempts on its own session, booked by its ledger. One attempt runs at a time;
 * the scheduled one and one asked for through the API take turns.
 */
public class TargetHeartbeat implements RepeatingTask, AutoCloseable {

	private final Target target;

	private final HeartbeatProperties settings;

	private final HeartbeatWriter writer;

	private final HeartbeatSession session;

	private final HeartbeatLedger ledger;

	private final SnapshotOrder snapshots;

	private final ReentrantLock lock = new ReentrantLock();

	private boolean closed;

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
		this.writer = HeartbeatWriter.of(this.settings);
		this.session = new HeartbeatSession(target, connector, this.writer);
		this.ledger = new HeartbeatLedger(target, registry, clock);
		this.snapshots = new SnapshotOrder(this.settings, !target.properties().replicas().isEmpty());
	}

	/**
	 * @return the target this heartbeat writes into
	 */
	public Target target() {
		return this.target;
	}

	/**
	 * @return when the first scheduled heartbeat runs: spread over the first interval (at most 10 s), so that many
	 * targets do not connect at once
	 */
	@Override
	public String about() {
		return this.target.name();
	}

	@Override
	public Duration firstDelay() {
		long spreadMillis = Math.min(this.settings.interval().toMillis(), 10_000);
		return Duration.ofMillis(ThreadLocalRandom.current().nextLong(spreadMillis + 1));
	}

	/**
	 * Runs one heartbeat now, for an operator.
	 * @param wait how long to wait for a heartbeat already running
	 * @return the outcome; failures are recorded, never thrown
	 * @throws ProblemException ({@link ProblemKind#HEARTBEAT_BUSY}) when the heartbeat already running does not
	 * finish in time
	 * @throws InterruptedException when interrupted while waiting
	 */
	HeartbeatOutcome beatNow(Duration wait) throws InterruptedException {
		if (!this.lock.tryLock(wait.toMillis(), TimeUnit.MILLISECONDS)) {
			throw new ProblemException(ProblemKind.HEARTBEAT_BUSY, "A heartbeat to target '" + this.target.name()
					+ "' is still running; try again shortly.").with("target", this.target.name());
		}
		try {
			return attempt(true);
		}
		finally {
			this.lock.unlock();
		}
	}

	/**
	 * Runs one scheduled heartbeat, or the standby snapshot that follows one once its consumers confirmed it.
	 * @return when to run next
	 */
	@Override
	public Duration run() {
		this.lock.lock();
		try {
			// A session that idled past its timeout (a paused schedule) is gone, and its follow-up with it.
			if (this.snapshots.awaiting() && !this.closed && this.session.isOpen()) {
				return this.snapshots.followUp(this.session.connection(), this.writer, this.ledger);
			}
			HeartbeatOutcome outcome = attempt(false);
			return outcome.succeeded() ? this.snapshots.afterBeat(outcome.lsn(), outcome.nextAttemptIn())
					: outcome.nextAttemptIn();
		}
		catch (Exception ex) {
			return failed(ex, Duration.ZERO).nextAttemptIn();
		}
		finally {
			this.lane = (this.ledger.failing()) ? Lane.RETRY : (this.session.isOpen() ? Lane.QUICK : Lane.CONNECT);
			this.lock.unlock();
		}
	}

	@Override
	public Lane lane() {
		return this.lane;
	}

	/**
	 * Records a failure that escaped {@link #run()}, so that even an error keeps the schedule going.
	 */
	@Override
	public Duration escaped(Throwable failure) {
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
			if (!this.session.isOpen()) {
				this.ledger.connecting();
				this.session.open();
				this.ledger.connected(true);
				this.ledger.standbySnapshot(this.snapshots.opened(this.session.current()),
						this.settings.standbySnapshot());
			}
			else {
				this.session.keepUp();
			}
			if (!this.session.claimOwnership() && !evenIfStandby) {
				Duration took = Duration.ofNanos(System.nanoTime() - start);
				this.session.readLineageIfDue();
				return this.ledger.standingBy(took);
			}
			String lsn = this.writer.write(this.session.connection());
			Duration took = Duration.ofNanos(System.nanoTime() - start);
			// After the beat, so that it is never late for the read.
			this.session.readLineageIfDue();
			return this.ledger.succeeded(lsn, took);
		}
		catch (Exception ex) {
			return failed(ex, Duration.ofNanos(System.nanoTime() - start));
		}
	}

	private HeartbeatOutcome failed(Throwable ex, Duration took) {
		dropSession();
		return this.ledger.failed(ex, took);
	}

	private void dropSession() {
		this.snapshots.reset();
		if (this.session.drop()) {
			this.ledger.connected(false);
		}
	}

	/**
	 * The status as of now, with its health: DOWN after {@code unhealthy-after} consecutive failures or when no
	 * heartbeat succeeded for three intervals (counted from start before the first success).
	 * @return the status
	 */
	public HeartbeatStatus status() {
		return this.ledger.status();
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
