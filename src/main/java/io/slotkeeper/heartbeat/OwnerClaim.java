package io.slotkeeper.heartbeat;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.SQLNonTransientConnectionException;
import java.time.Duration;
import java.util.function.Supplier;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.slotkeeper.config.HeartbeatCadence;
import io.slotkeeper.fleet.Rendezvous;
import io.slotkeeper.fleet.Target;
import io.slotkeeper.sessions.AdvisoryLocks;

/**
 * The owner lock of a target, on the heartbeat's session: taken by the instance the
 * rendezvous plan prefers, or by another when the preferred one left it free for longer
 * than the server keeps a silent session; handed over when the preferred instance is up
 * again. What it learns it writes into the target's ownership.
 */
final class OwnerClaim {

	private static final Logger logger = LoggerFactory.getLogger(OwnerClaim.class);

	private final Target target;

	private final long ownerKey;

	private final HeartbeatCadence cadence;

	private final Duration idleTimeout;

	private long freeSince;

	private Supplier<Connection> session;

	OwnerClaim(Target target, Duration idleTimeout) {
		this.target = target;
		this.ownerKey = AdvisoryLocks.ownerKey(target.name());
		this.cadence = target.properties().heartbeat().cadence();
		this.idleTimeout = idleTimeout;
	}

	/**
	 * Takes the owner lock when this instance should own the target, or when nobody holds
	 * it and the instance that should has not taken it for two intervals; hands it over
	 * when another instance up should own it.
	 * @param session the heartbeat's session
	 * @return whether this instance owns the target now
	 */
	boolean claim(Supplier<Connection> session) throws SQLException {
		this.session = session;
		return this.target.ownership().owned() ? keepOrHandOver() : claimFree();
	}

	private boolean keepOrHandOver() throws SQLException {
		Rendezvous rendezvous = this.target.ownership().rendezvous();
		if (!rendezvous.due()) {
			return true;
		}
		rendezvous.refresh(this.session.get());
		if (!rendezvous.preferred()) {
			// Not the owner before the lock is free, so that no moment has two instances
			// acting as owners.
			this.target.ownership().learnt(false);
			AdvisoryLocks.unlock(this.session.get(), this.ownerKey);
			logger.info("Handing target '{}' over to the instance that should own it", this.target.name());
		}
		return this.target.ownership().owned();
	}

	// A free lock means the owner is gone: read who is up before deciding whether to keep
	// it.
	private boolean claimFree() throws SQLException {
		Rendezvous rendezvous = this.target.ownership().rendezvous();
		if (rendezvous.due()) {
			rendezvous.refresh(this.session.get());
		}
		boolean held = AdvisoryLocks.tryLock(this.session.get(), this.ownerKey);
		if (held && !AdvisoryLocks.holds(this.session.get(), this.ownerKey)) {
			throw new SQLNonTransientConnectionException("the owner lock of target '" + this.target.name() + "' was not"
					+ " held by the next statement of the session that took it: a connection pooler in transaction or"
					+ " statement mode (PgBouncer pool_mode=transaction) sits in front of the server; slot-keeper's owner"
					+ " lock needs one server session: connect directly or through a session-mode pool", "08004");
		}
		if (held && !rendezvous.preferred()) {
			rendezvous.refresh(this.session.get());
			if (!rendezvous.preferred() && !overdue()) {
				AdvisoryLocks.unlock(this.session.get(), this.ownerKey);
				held = false;
			}
		}
		else if (!held) {
			this.freeSince = 0;
		}
		if (held && rendezvous.preferred()) {
			this.freeSince = 0;
			rendezvous.recheckAfter(this.cadence.ownerRecheck());
		}
		this.target.ownership().learnt(held);
		return held;
	}

	// The instance that should own the target is up but has left it free for longer than
	// the server would keep a
	// silent session of it, so it is not gone but stuck: this one owns the target until
	// its next look at who is up.
	private boolean overdue() {
		long now = System.nanoTime();
		if (this.freeSince == 0) {
			this.freeSince = now;
		}
		if (now - this.freeSince <= this.cadence.ownerGoneAfter(this.idleTimeout).toNanos()) {
			return false;
		}
		this.freeSince = 0;
		logger.warn("The instance that should own target '{}' has left it free for {} ms; this one owns it for now",
				this.target.name(), this.cadence.ownerGoneAfter(this.idleTimeout).toMillis());
		return true;
	}

}
