package io.slotkeeper.heartbeat;

import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;

import io.slotkeeper.fleet.AdvisoryLocks;
import io.slotkeeper.fleet.NodeConnector;
import io.slotkeeper.fleet.NodeSession;
import io.slotkeeper.fleet.ServerIdentity;
import io.slotkeeper.fleet.Target;

/**
 * The heartbeat's own session on a target's primary, prepared for the heartbeat's mode, and the owner lock it holds:
 * the server releases that lock with the session, so ownership lives and dies with it. The server ends the session
 * when it falls silent (see {@link #idleTimeout(Target)}), so a frozen or cut-off owner frees the lock for another
 * instance. What it learns about ownership it writes into the target.
 */
final class HeartbeatSession {

	private final Target target;

	private final NodeConnector connector;

	private final HeartbeatWriter writer;

	private final Duration idleTimeout;

	private NodeSession session;

	private long lastUsed;

	HeartbeatSession(Target target, NodeConnector connector, HeartbeatWriter writer) {
		this.target = target;
		this.connector = connector;
		this.writer = writer;
		this.idleTimeout = idleTimeout(target);
	}

	/**
	 * How long the server lets the session idle before it ends it and frees the owner lock: a little more than an
	 * interval and a statement, the longest a healthy owner leaves it idle.
	 * @param target the target
	 * @return the timeout
	 */
	static Duration idleTimeout(Target target) {
		return target.properties().heartbeat().interval()
			.plus(target.properties().connection().statementTimeout())
			.plusSeconds(1);
	}

	// A session idle for longer than its timeout has been ended by the server (a disabled heartbeat's, say).
	boolean isOpen() {
		if (this.session != null && System.nanoTime() - this.lastUsed > this.idleTimeout.toNanos()) {
			drop();
		}
		return this.session != null;
	}

	void open() throws SQLException {
		NodeSession opened = this.connector.open(this.target.primary(), this.idleTimeout);
		try {
			ServerIdentity server = this.target.primary().identity();
			if (server != null && server.inRecovery()) {
				throw new SQLException("the server answering for target '" + this.target.name() + "' ("
						+ server.address() + ":" + server.port() + ") is in recovery, a standby: heartbeats and"
						+ " ownership go to the primary only", "25006");
			}
			this.writer.prepare(opened.connection());
		}
		catch (SQLException | RuntimeException ex) {
			opened.close();
			throw ex;
		}
		this.session = opened;
		this.lastUsed = System.nanoTime();
	}

	NodeSession current() {
		return this.session;
	}

	Connection connection() {
		this.lastUsed = System.nanoTime();
		return this.session.connection();
	}

	/**
	 * Takes the owner lock if this session does not hold it yet.
	 * @return whether this instance owns the target now
	 */
	boolean claimOwnership() throws SQLException {
		if (!this.target.ownership().owned()) {
			this.target.ownership()
				.learnt(AdvisoryLocks.tryLock(connection(), AdvisoryLocks.ownerKey(this.target.name())));
		}
		return this.target.ownership().owned();
	}

	/**
	 * Ends the session, if one is open.
	 * @return whether one was open
	 */
	boolean drop() {
		if (this.session == null) {
			return false;
		}
		this.session.close();
		this.session = null;
		this.target.ownership().forgotten();
		return true;
	}

}
