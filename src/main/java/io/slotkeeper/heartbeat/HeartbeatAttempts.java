package io.slotkeeper.heartbeat;

import java.time.Clock;
import java.time.Duration;

import io.micrometer.core.instrument.MeterRegistry;

import io.slotkeeper.config.HeartbeatProperties;
import io.slotkeeper.fleet.Target;
import io.slotkeeper.lanes.Lane;
import io.slotkeeper.sessions.NodeConnector;

/**
 * What one heartbeat attempt of a target does, on its own session and booked by its
 * ledger: connect when the session is gone, claim the target, write the beat, read the
 * lineage when due; or, after a beat its consumers confirmed, the standby snapshot. Not
 * thread-safe: {@link TargetHeartbeat} runs one attempt at a time.
 */
final class HeartbeatAttempts {

	private final HeartbeatProperties settings;

	private final HeartbeatWriter writer;

	private final HeartbeatSession session;

	private final HeartbeatLedger ledger;

	private final SnapshotOrder snapshots;

	private boolean closed;

	HeartbeatAttempts(Target target, NodeConnector connector, MeterRegistry registry, Clock clock) {
		this.settings = target.properties().heartbeat();
		this.writer = HeartbeatWriter.of(this.settings);
		this.session = new HeartbeatSession(target, connector, this.writer);
		this.ledger = new HeartbeatLedger(target, registry, clock);
		this.snapshots = new SnapshotOrder(this.settings, !target.properties().replicas().isEmpty());
	}

	/**
	 * The scheduled attempt: the standby snapshot that follows a confirmed beat, else a
	 * beat.
	 * @return when to run next
	 */
	Duration scheduled() {
		try {
			// A session that idled past its timeout (a paused schedule) is gone, and its
			// follow-up with it.
			if (this.snapshots.awaiting() && !this.closed && this.session.isOpen()) {
				return this.snapshots.followUp(this.session.connection(), this.writer, this.ledger);
			}
			HeartbeatOutcome outcome = beat(false);
			return outcome.succeeded() ? this.snapshots.afterBeat(outcome.lsn(), outcome.nextAttemptIn())
					: outcome.nextAttemptIn();
		}
		catch (Exception ex) {
			return failed(ex, Duration.ZERO).nextAttemptIn();
		}
	}

	// A scheduled heartbeat writes only on the instance that owns the target; one asked
	// for by an operator writes
	// anyway, since heartbeats from several instances are harmless.
	HeartbeatOutcome beat(boolean evenIfStandby) {
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

	HeartbeatOutcome failed(Throwable ex, Duration took) {
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
	 * The lane the next attempt should run in: retrying after failures, connecting
	 * without a session, else quick.
	 */
	Lane lane() {
		return this.ledger.failing() ? Lane.RETRY : (this.session.isOpen() ? Lane.QUICK : Lane.CONNECT);
	}

	HeartbeatStatus status() {
		return this.ledger.status();
	}

	void close() {
		this.closed = true;
		dropSession();
	}

}
