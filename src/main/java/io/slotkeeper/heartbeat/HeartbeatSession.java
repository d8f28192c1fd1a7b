package io.slotkeeper.heartbeat;

import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.slotkeeper.fleet.Target;
import io.slotkeeper.sessions.NodeConnector;
import io.slotkeeper.sessions.NodeSession;
import io.slotkeeper.sessions.SessionSilence;

/**
 * The heartbeat's own session on a target's primary, prepared for the heartbeat's mode,
 * and the owner lock it holds: the server releases that lock with the session, so
 * ownership lives and dies with it. The server ends the session when it falls silent (see
 * {@link #idleTimeout(Target)}), so a frozen or cut-off owner frees the lock for another
 * instance. What it learns about ownership it writes into the target.
 */
final class HeartbeatSession {

	private static final Logger logger = LoggerFactory.getLogger(HeartbeatSession.class);

	private final Target target;

	private final NodeConnector connector;

	private final HeartbeatWriter writer;

	private final LineageSampler lineage;

	private final OwnerClaim owner;

	private final Duration idleTimeout;

	private final Duration longestIdleTimeout;

	private NodeSession session;

	private long lastUsed;

	// What the server was last told: the idle timeout, or longer once beats ran late.
	private Duration granted;

	HeartbeatSession(Target target, NodeConnector connector, HeartbeatWriter writer) {
		this.target = target;
		this.connector = connector;
		this.writer = writer;
		this.lineage = new LineageSampler(target);
		this.idleTimeout = idleTimeout(target);
		this.longestIdleTimeout = this.idleTimeout.multipliedBy(LATE_FACTOR);
		this.granted = this.idleTimeout;
		this.owner = new OwnerClaim(target, this.idleTimeout);
	}

	/**
	 * How long the server lets the session idle before it ends it and frees the owner
	 * lock: two intervals, a statement and a second. A healthy owner leaves it idle for
	 * one interval; the second is the margin for a beat that waited for a busy instance's
	 * workers or a busy server, since ending a session that is merely late costs a
	 * reconnection, which costs the server more than the beat did.
	 * @param target the target
	 * @return the timeout
	 */
	static Duration idleTimeout(Target target) {
		return target.properties()
			.heartbeat()
			.cadence()
			.sessionIdle(target.properties().connection().statementTimeout());
	}

	/**
	 * How much longer than {@link #idleTimeout(Target)} a session may stay idle once its
	 * beats ran late: a frozen owner that had been late before it froze is taken over
	 * within this many idle timeouts.
	 */
	static final int LATE_FACTOR = 4;

	/**
	 * The idle timeout that leaves a late session room: unchanged while the session idled
	 * at most half of it, else twice as long (or three times the idle gap, if longer), at
	 * most the ceiling.
	 * @param granted the session's idle timeout now
	 * @param idled how long it has just idled
	 * @param ceiling the longest allowed
	 * @return the idle timeout it should have
	 */
	static Duration lateRoom(Duration granted, Duration idled, Duration ceiling) {
		if (idled.multipliedBy(2).compareTo(granted) <= 0 || granted.compareTo(ceiling) >= 0) {
			return granted;
		}
		Duration longer = granted.multipliedBy(2);
		Duration wanted = (idled.multipliedBy(3).compareTo(longer) > 0) ? idled.multipliedBy(3) : longer;
		return (wanted.compareTo(ceiling) < 0) ? wanted : ceiling;
	}

	// A session idle for longer than its timeout has been ended by the server (a disabled
	// heartbeat's, say).
	boolean isOpen() {
		if (this.session != null && System.nanoTime() - this.lastUsed > this.granted.toNanos()) {
			drop();
		}
		return this.session != null;
	}

	void open() throws SQLException {
		NodeSession opened = this.connector.open(this.target.primary(), this.idleTimeout);
		try {
			this.writer.prepare(opened.connection());
			if (!this.target.ownership().rendezvous().announce(opened.connection())) {
				logger.warn("Another session already holds the presence of instance '{}' for target '{}': an earlier"
						+ " session not ended yet, or two instances with one identity (slotkeeper.instance-id, HOSTNAME)",
						this.target.ownership().rendezvous().self().id(), this.target.name());
			}
		}
		catch (SQLException | RuntimeException ex) {
			opened.close();
			throw ex;
		}
		this.session = opened;
		this.granted = this.idleTimeout;
		this.lastUsed = System.nanoTime();
	}

	/**
	 * Keeps the server from ending a session that is merely late. Beats run late when the
	 * instance or the server is busy; a session the server ends for it costs a
	 * reconnection, which costs the server more than the beat did, so beats fall further
	 * behind and more sessions end: the fleet never settles. A session that idled for
	 * more than half its idle timeout is given more room first (see {@link #lateRoom}),
	 * in one statement, at most {@value #LATE_FACTOR} times the usual.
	 * @throws SQLException when the server refuses or does not answer in time
	 */
	void keepUp() throws SQLException {
		Duration idled = Duration.ofNanos(System.nanoTime() - this.lastUsed);
		Duration room = lateRoom(this.granted, idled, this.longestIdleTimeout);
		if (this.session == null || room.equals(this.granted)) {
			return;
		}
		SessionSilence.allow(this.session, room);
		this.lastUsed = System.nanoTime();
		logger.info(
				"The heartbeat of target '{}' ran {} ms after the last statement of its session (idle timeout {} ms):"
						+ " the instance or the server is busy; the server now ends the session after {} ms of silence",
				this.target.name(), idled.toMillis(), this.granted.toMillis(), room.toMillis());
		this.granted = room;
	}

	NodeSession current() {
		return this.session;
	}

	Connection connection() {
		this.lastUsed = System.nanoTime();
		return this.session.connection();
	}

	/**
	 * Reads what other features need from this session that every instance holds anyway,
	 * when due ({@link LineageSampler}).
	 */
	void readLineageIfDue() {
		this.lineage.readIfDue(this::connection);
	}

	/**
	 * Takes, keeps or hands over the owner lock on this session ({@link OwnerClaim}).
	 * @return whether this instance owns the target now
	 */
	boolean claimOwnership() throws SQLException {
		return this.owner.claim(this::connection);
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
