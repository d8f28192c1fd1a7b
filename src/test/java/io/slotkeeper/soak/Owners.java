package io.slotkeeper.soak;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.HashMap;
import java.util.Map;

import io.slotkeeper.sessions.AdvisoryLocks;

/**
 * Who owns each target as the server says it, not as slot-keeper does: the session that
 * holds the target's owner lock ({@code pg_locks}), traced from its client port
 * ({@code pg_stat_activity}) through the primary's Service and the instances' own network
 * paths to the instance it came from. A frozen or stalled instance whose session still
 * holds the lock owns the target.
 */
final class Owners {

	/** No session holds the target's owner lock. */
	static final int NONE = -1;

	/** A session holds it that came through no instance's network path. */
	static final int UNKNOWN = -2;

	private final SoakWorld world;

	Owners(SoakWorld world) {
		this.world = world;
	}

	/**
	 * Each pipeline's target's owner now.
	 * @return per target, the index of the instance whose session holds its owner lock,
	 * {@link #NONE} or {@link #UNKNOWN}
	 */
	Map<String, Integer> now() {
		Map<Long, String> targets = new HashMap<>();
		Map<String, Integer> owners = new HashMap<>();
		for (SoakPipeline pipeline : this.world.pipelines) {
			targets.put(AdvisoryLocks.ownerKey(pipeline.target), pipeline.target);
			owners.put(pipeline.target, NONE);
		}
		try (Connection connection = this.world.server.connect("postgres");
				Statement statement = connection.createStatement();
				ResultSet held = statement.executeQuery("SELECT (l.classid::int8 << 32) | l.objid::int8, a.client_port"
						+ " FROM pg_locks l JOIN pg_stat_activity a ON a.pid = l.pid"
						+ " WHERE l.locktype = 'advisory' AND l.granted AND l.objsubid = 1")) {
			while (held.next()) {
				String target = targets.get(held.getLong(1));
				if (target != null) {
					owners.put(target, instanceOf(held.getInt(2)));
				}
			}
		}
		catch (SQLException ex) {
			throw new IllegalStateException(ex);
		}
		return owners;
	}

	/**
	 * The instance that owns a pipeline's target now.
	 * @param pipeline the pipeline
	 * @return the instance, {@code null} when no instance's session holds its lock
	 */
	Instance of(SoakPipeline pipeline) {
		int owner = now().get(pipeline.target);
		return (owner >= 0) ? this.world.instances.get(owner) : null;
	}

	/**
	 * Which instance a session of the primary came from.
	 * @param clientPort the session's {@code client_port}
	 * @return the instance's index, {@link #UNKNOWN} when it came through none
	 */
	int instanceOf(int clientPort) {
		Integer throughService = this.world.server.clientPortOf(clientPort);
		if (throughService == null) {
			return UNKNOWN;
		}
		for (int n = 0; n < this.world.networks.size(); n++) {
			if (this.world.networks.get(n).clientPortOf(throughService) != null) {
				return n;
			}
		}
		return UNKNOWN;
	}

}
