package io.slotkeeper.fleet;

import io.slotkeeper.support.TextDigests;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.Set;
import java.util.TreeSet;

import io.slotkeeper.config.HeartbeatCadence;
import io.slotkeeper.sessions.Node;

/**
 * Which of the instances up for a target should own it, by the fleet's
 * {@link OwnershipPlan} (rendezvous hashing of the target's name with each instance's
 * key, with bounded loads). An instance is up for a target while its heartbeat session
 * holds its presence lock in the target's database; each instance reads the others'
 * there. The owner lock stays the only safety: this only decides who tries for it. Used
 * under the heartbeat's lock.
 */
public final class Rendezvous {

	private final String target;

	// The first half of the two-key advisory lock that says "this instance is up for this
	// target"; the second is the
	// instance's key. Per target, since one instance has a session per target and several
	// may share a database.
	private final int presence;

	private final Instance self;

	private final Duration refreshEvery;

	private final OwnershipPlan plan;

	private final Presences presences;

	private final Node node;

	private final Duration interval;

	private volatile Set<Integer> live = Set.of();

	// The database the heartbeat's session is in, where its presence is held; learnt when
	// it announces itself.
	private String database;

	private long refreshedAt;

	Rendezvous(String target, Instance self, HeartbeatCadence cadence, OwnershipPlan plan, Presences presences,
			Node node) {
		this.target = target;
		this.plan = plan;
		this.presences = presences;
		this.node = node;
		this.interval = cadence.interval();
		this.presence = (int) (TextDigests.of("slot-keeper:presence:" + target) >>> 33);
		this.self = self;
		this.refreshEvery = cadence.presenceRefresh();
	}

	/**
	 * Says on a new session that this instance is up for the target.
	 * @param connection the heartbeat's session, which holds the presence for as long as
	 * it lives
	 * @return whether it could: {@code false} when another session holds the same
	 * presence (an earlier session the server has not ended yet, or two instances with
	 * one identity)
	 * @throws SQLException when the server refuses
	 */
	public boolean announce(Connection connection) throws SQLException {
		this.refreshedAt = 0;
		try (PreparedStatement statement = connection
			.prepareStatement("SELECT pg_catalog.pg_try_advisory_lock(?, ?), pg_catalog.current_database()")) {
			statement.setInt(1, this.presence);
			statement.setInt(2, this.self.key());
			try (ResultSet result = statement.executeQuery()) {
				result.next();
				this.database = result.getString(2);
				return result.getBoolean(1);
			}
		}
	}

	/**
	 * @return whether the view of the instances up is older than its refresh period (two
	 * intervals, 10 s to 5 min)
	 */
	public boolean due() {
		return this.refreshedAt == 0 || System.nanoTime() - this.refreshedAt > this.refreshEvery.toNanos();
	}

	/**
	 * Makes the view due again after a while, sooner than its period: a new owner looks
	 * again, since instances that start together announce themselves one target at a
	 * time.
	 * @param after how long from now
	 */
	public void recheckAfter(Duration after) {
		this.refreshedAt = System.nanoTime() - this.refreshEvery.toNanos() + after.toNanos();
	}

	/**
	 * Reads which instances are up for the target, from a reading of the server's
	 * presences that serves all its targets for a moment ({@link Presences}).
	 * @param connection the heartbeat's session, after {@link #announce(Connection)}
	 * @return the instances' keys, this one's included
	 * @throws SQLException when the server refuses
	 */
	public Set<Integer> refresh(Connection connection) throws SQLException {
		Set<Integer> keys = new TreeSet<>();
		keys.add(this.self.key());
		if (this.database != null) {
			keys.addAll(this.presences.live(this.node, connection, this.database, this.presence, this.interval));
		}
		this.live = Set.copyOf(keys);
		this.refreshedAt = System.nanoTime();
		this.plan.seen(this.target, this.live);
		return this.live;
	}

	/**
	 * @return whether this instance should own the target by the plan, given who is up
	 * for it as last read ({@code true} before the first read)
	 */
	public boolean preferred() {
		return this.live.isEmpty() || this.plan.owner(this.target, this.live) == this.self.key();
	}

	/**
	 * The target whose presence this is.
	 * @return its name
	 */
	public String target() {
		return this.target;
	}

	/**
	 * @return this instance
	 */
	public Instance self() {
		return this.self;
	}

	/**
	 * @return the instances up for the target as last read, this one's included
	 */
	public Set<Integer> live() {
		return this.live;
	}

	/**
	 * An instance's weight for a target; every instance computes the same.
	 * @param target the target's name
	 * @param key the instance's key
	 * @return the weight
	 */
	public static long score(String target, int key) {
		return TextDigests.of("slot-keeper:rendezvous:" + target + ":" + key);
	}

}
