package io.slotkeeper.fleet;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import io.slotkeeper.sessions.Node;
import io.slotkeeper.sessions.ServerIdentity;

/**
 * The instances up for each target of a server, read from {@code pg_locks} once per
 * server for every target on it. Reading {@code pg_locks} walks the server's whole lock
 * table while holding every lock-manager partition, and every advisory lock taken or
 * released anywhere on the server waits for it: read once per target, a thousand targets
 * made the server spend most of its CPU there and stalled their heartbeats (measured in
 * {@code bench/results/RESULTS.md}, section 7). One reading serves every target of the
 * server for {@link #MAX_AGE}, or for its interval where that is shorter, so that a look
 * again soon after a claim sees instances that announced themselves since.
 */
public final class Presences {

	/**
	 * How long one reading of a server serves its targets.
	 */
	static final Duration MAX_AGE = Duration.ofSeconds(2);

	private static final String ALL = "SELECT d.datname, l.classid::pg_catalog.int8, l.objid::pg_catalog.int8"
			+ " FROM pg_catalog.pg_locks l JOIN pg_catalog.pg_database d ON d.oid = l.database"
			+ " WHERE l.locktype = 'advisory' AND l.objsubid = 2 AND l.granted";

	private final Map<Object, Server> servers = new ConcurrentHashMap<>();

	/**
	 * The keys of the instances whose presence for a target is held now, as read at most
	 * {@code maxAge} ago.
	 * @param node the target's primary, which says which server the connection is on
	 * @param connection a session on that server, used when a new reading is due
	 * @param database the database the target's presences are held in
	 * @param presence the first half of the target's presence locks
	 * @param maxAge how old a reading may be, at most {@link #MAX_AGE}
	 * @return the instances' keys
	 * @throws SQLException when the server refuses
	 */
	Set<Integer> live(Node node, Connection connection, String database, int presence, Duration maxAge)
			throws SQLException {
		long age = Math.min(maxAge.toNanos(), MAX_AGE.toNanos());
		return this.servers.computeIfAbsent(server(node), (key) -> new Server())
			.read(connection, age)
			.getOrDefault(new Presence(database, presence), Set.of());
	}

	// The same running server however its targets' URLs name it; a node whose server is
	// not known yet, or that is
	// reached over a Unix socket, reads for itself.
	private static Object server(Node node) {
		ServerIdentity identity = node.identity();
		if (identity == null || identity.address() == null) {
			return node;
		}
		return new ServerAddress(identity.address(), identity.port(), identity.startedAt());
	}

	private record ServerAddress(String address, Integer port, Object startedAt) {
	}

	private record Presence(String database, long presence) {
	}

	private static final class Server {

		private Map<Presence, Set<Integer>> last = Map.of();

		private long readAt;

		// One reader at a time: the others wait for its reading instead of reading too.
		synchronized Map<Presence, Set<Integer>> read(Connection connection, long maxAgeNanos) throws SQLException {
			if (this.readAt != 0 && System.nanoTime() - this.readAt <= maxAgeNanos) {
				return this.last;
			}
			Map<Presence, Set<Integer>> read = new HashMap<>();
			try (PreparedStatement statement = connection.prepareStatement(ALL);
					ResultSet result = statement.executeQuery()) {
				while (result.next()) {
					read.computeIfAbsent(new Presence(Objects.requireNonNull(result.getString(1)), result.getLong(2)),
							(key) -> new HashSet<>())
						.add((int) result.getLong(3));
				}
			}
			this.last = read;
			this.readAt = System.nanoTime();
			return read;
		}

	}

}
