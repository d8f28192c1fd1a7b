package io.slotkeeper.sessions;

import io.slotkeeper.support.TextDigests;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;

/**
 * PostgreSQL session-level advisory locks that coordinate slot-keeper instances through
 * the target itself: a fixed 64-bit key per purpose and target, derived from the
 * product's name, so that every instance computes the same one.
 */
public final class AdvisoryLocks {

	private AdvisoryLocks() {
	}

	/**
	 * The key of the lock held by the instance that owns a target (heartbeats and
	 * healing).
	 * @param target the target's name
	 * @return the key
	 */
	public static long ownerKey(String target) {
		return key("slot-keeper:owner:" + target);
	}

	/**
	 * The key of the lock that serializes slot changes on a target, from any instance.
	 * @param target the target's name
	 * @return the key
	 */
	public static long changeKey(String target) {
		return key("slot-keeper:change:" + target);
	}

	/**
	 * The key of the lock that serializes the WAL-limit raise of one server, taken in the
	 * database where the raise is recorded.
	 * @param server the server's key
	 * @return the key
	 */
	public static long keepSizeKey(String server) {
		return key("slot-keeper:keep-size:" + server);
	}

	/**
	 * Takes a lock if it is free, without waiting.
	 * @param connection the session that will hold it
	 * @param key the key
	 * @return whether this session holds it now
	 * @throws SQLException when the server refuses
	 */
	public static boolean tryLock(Connection connection, long key) throws SQLException {
		return call(connection, "SELECT pg_catalog.pg_try_advisory_lock(?)", key);
	}

	/**
	 * Whether this session, in a statement of its own, still holds a lock it took: behind
	 * a pooler in transaction mode the next statement runs in another server session,
	 * which does not. Taking the lock again succeeds only in the session that holds it,
	 * and the release that follows leaves it held once, as before; neither touches the
	 * server's shared lock table, unlike a look at {@code pg_locks}.
	 * @param connection the session that took it
	 * @param key the key
	 * @return whether the lock is this server session's
	 * @throws SQLException when the server refuses
	 */
	public static boolean holds(Connection connection, long key) throws SQLException {
		try (PreparedStatement statement = connection.prepareStatement("SELECT CASE WHEN"
				+ " pg_catalog.pg_try_advisory_lock(?) THEN pg_catalog.pg_advisory_unlock(?) ELSE false END")) {
			statement.setLong(1, key);
			statement.setLong(2, key);
			try (ResultSet result = statement.executeQuery()) {
				result.next();
				return result.getBoolean(1);
			}
		}
	}

	/**
	 * Takes a lock, waiting at most the session's {@code lock_timeout}.
	 * @param connection the session that will hold it
	 * @param key the key
	 * @throws SQLException when the wait times out (55P03) or the server refuses
	 */
	public static void lock(Connection connection, long key) throws SQLException {
		call(connection, "SELECT pg_catalog.pg_advisory_lock(?) IS NULL", key);
	}

	/**
	 * Releases a lock this session holds.
	 * @param connection the session holding it
	 * @param key the key
	 * @throws SQLException when the server refuses
	 */
	public static void unlock(Connection connection, long key) throws SQLException {
		call(connection, "SELECT pg_catalog.pg_advisory_unlock(?)", key);
	}

	/**
	 * Which session of the database holds a lock, in words: a lock that stays taken names
	 * a session to look at (one whose client is gone holds it until the server ends it).
	 * @param connection a session in the lock's database
	 * @param key the key
	 * @return for example
	 * {@code pid 4711 (slot-keeper, idle since 2026-12-06T07:00:50Z)}, {@code null} when
	 * free
	 * @throws SQLException when the server refuses
	 */
	public static String holder(Connection connection, long key) throws SQLException {
		// A bigint key is kept as its high and low halves, objsubid 1.
		try (PreparedStatement statement = connection.prepareStatement("SELECT l.pid, a.application_name, a.state,"
				+ " a.state_change FROM pg_catalog.pg_locks l LEFT JOIN pg_catalog.pg_stat_activity a ON a.pid = l.pid"
				+ " WHERE l.locktype = 'advisory' AND l.granted AND l.objsubid = 1"
				+ " AND l.database = (SELECT oid FROM pg_catalog.pg_database WHERE datname = pg_catalog.current_database())"
				+ " AND l.classid::pg_catalog.int8 = ? AND l.objid::pg_catalog.int8 = ?")) {
			statement.setLong(1, key >>> 32);
			statement.setLong(2, key & 0xFFFFFFFFL);
			try (ResultSet result = statement.executeQuery()) {
				if (!result.next()) {
					return null;
				}
				java.sql.Timestamp since = result.getTimestamp(4);
				return "pid " + result.getInt(1) + " (" + result.getString(2) + ", " + result.getString(3)
						+ ((since != null) ? " since " + since.toInstant() : "") + ")";
			}
		}
	}

	private static boolean call(Connection connection, String sql, long key) throws SQLException {
		try (PreparedStatement statement = connection.prepareStatement(sql)) {
			statement.setLong(1, key);
			try (ResultSet result = statement.executeQuery()) {
				result.next();
				return result.getBoolean(1);
			}
		}
	}

	private static long key(String name) {
		return TextDigests.of(name);
	}

}
