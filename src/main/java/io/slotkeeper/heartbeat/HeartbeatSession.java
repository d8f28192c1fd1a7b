package io.slotkeeper.heartbeat;

import java.sql.Connection;
import java.sql.SQLException;

import io.slotkeeper.fleet.AdvisoryLocks;
import io.slotkeeper.fleet.NodeConnector;
import io.slotkeeper.fleet.NodeSession;
import io.slotkeeper.fleet.Target;

/**
 * The heartbeat's own session on a target's primary, prepared for the heartbeat's mode, and the owner lock it holds:
 * the server releases that lock with the session, so ownership lives and dies with it. What it learns about
 * ownership it writes into the target.
 */
final class HeartbeatSession {

	private final Target target;

	private final NodeConnector connector;

	private final HeartbeatWriter writer;

	private NodeSession session;

	HeartbeatSession(Target target, NodeConnector connector, HeartbeatWriter writer) {
		this.target = target;
		this.connector = connector;
		this.writer = writer;
	}

	boolean isOpen() {
		return this.session != null;
	}

	void open() throws SQLException {
		NodeSession opened = this.connector.open(this.target.primary());
		try {
			this.writer.prepare(opened.connection());
		}
		catch (SQLException | RuntimeException ex) {
			opened.close();
			throw ex;
		}
		this.session = opened;
	}

	NodeSession current() {
		return this.session;
	}

	Connection connection() {
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
