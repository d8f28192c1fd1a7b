package io.slotkeeper.fleet;

/**
 * Whether this instance owns a target (holds its owner lock, heartbeats and heals it), and which instance should. The
 * heartbeat, which holds the lock on its session, writes it; healing and the gauges read it.
 */
public final class Ownership {

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
	 * @return {@code true} owner, {@code false} standing by, {@code null} not known (no session)
	 */
	public Boolean state() {
		return this.owner;
	}

	/**
	 * Records what the last try for the owner lock came to.
	 * @param owns whether this instance holds it
	 */
	public void learnt(boolean owns) {
		this.owner = owns;
	}

	/**
	 * Records that the session holding (or trying for) the lock is gone: the server released the lock with it.
	 */
	public void forgotten() {
		this.owner = null;
	}

}
