package io.slotkeeper.fleet;

import java.util.Map;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.slf4j.event.Level;
import io.slotkeeper.support.Events;

/**
 * Whether this instance owns a target (holds its owner lock, heartbeats and heals it),
 * and which instance should. The heartbeat, which holds the lock on its session, writes
 * it; healing and the gauges read it.
 */
public final class Ownership {

	private static final Logger logger = LoggerFactory.getLogger(Ownership.class);

	private final Rendezvous rendezvous;

	private volatile Boolean owner;

	Ownership(Rendezvous rendezvous) {
		this.rendezvous = rendezvous;
	}

	/**
	 * @return which of the instances up should own the target
	 */
	public Rendezvous rendezvous() {
		return this.rendezvous;
	}

	/**
	 * Whether this instance owns the target now.
	 * @return {@code true} only while it holds the owner lock
	 */
	public boolean owned() {
		return Boolean.TRUE.equals(this.owner);
	}

	/**
	 * The ownership as last learnt.
	 * @return {@code true} owner, {@code false} standing by, {@code null} not known (no
	 * session)
	 */
	public Boolean state() {
		return this.owner;
	}

	/**
	 * Records what the last try for the owner lock came to.
	 * @param owns whether this instance holds it
	 */
	public void learnt(boolean owns) {
		Boolean before = this.owner;
		this.owner = owns;
		if (!Boolean.valueOf(owns).equals(before) && (owns || Boolean.TRUE.equals(before))) {
			Events.log(logger, Level.INFO, owns ? "ownership.acquired" : "ownership.released",
					Map.of(Events.TARGET, this.rendezvous.target(), "slotkeeper.instance", this.rendezvous.self().id()),
					owns ? "Instance '{}' owns target '{}' now" : "Instance '{}' no longer owns target '{}'",
					this.rendezvous.self().id(), this.rendezvous.target());
		}
	}

	/**
	 * Records that the session holding (or trying for) the lock is gone: the server
	 * released the lock with it.
	 */
	public void forgotten() {
		if (Boolean.TRUE.equals(this.owner)) {
			Events.log(logger, Level.INFO, "ownership.released",
					Map.of(Events.TARGET, this.rendezvous.target(), "slotkeeper.instance", this.rendezvous.self().id()),
					"Instance '{}' no longer owns target '{}': its " + "session ended", this.rendezvous.self().id(),
					this.rendezvous.target());
		}
		this.owner = null;
	}

}
