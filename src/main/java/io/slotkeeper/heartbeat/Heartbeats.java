package io.slotkeeper.heartbeat;

import java.time.Duration;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.Map;

import io.slotkeeper.config.HeartbeatProperties;
import io.slotkeeper.target.TargetNotFoundException;

/**
 * Every target's heartbeat, by name, in configuration order.
 */
public class Heartbeats implements AutoCloseable {

	private final Map<String, TargetHeartbeat> byName = new LinkedHashMap<>();

	/**
	 * Collects the heartbeats.
	 * @param heartbeats one per target, names unique
	 */
	public Heartbeats(Collection<TargetHeartbeat> heartbeats) {
		heartbeats.forEach((heartbeat) -> this.byName.put(heartbeat.name(), heartbeat));
	}

	/**
	 * All heartbeats.
	 * @return the heartbeats in configuration order
	 */
	public Collection<TargetHeartbeat> all() {
		return this.byName.values();
	}

	/**
	 * One target's heartbeat.
	 * @param name the target's name
	 * @return the heartbeat
	 * @throws TargetNotFoundException when no target has that name
	 */
	public TargetHeartbeat get(String name) {
		TargetHeartbeat heartbeat = this.byName.get(name);
		if (heartbeat == null) {
			throw new TargetNotFoundException(name);
		}
		return heartbeat;
	}

	/**
	 * The longest a single attempt of any target can take: connecting, then one statement and the client's margin.
	 * @return the bound
	 */
	public Duration longestAttempt() {
		return all().stream()
			.map(TargetHeartbeat::properties)
			.map((target) -> target.heartbeat())
			.map((HeartbeatProperties heartbeat) -> heartbeat.connectTimeout()
				.multipliedBy(2)
				.plus(heartbeat.statementTimeout())
				.plusSeconds(3))
			.max(Duration::compareTo)
			.orElse(Duration.ofSeconds(1));
	}

	/**
	 * Closes every target's session.
	 */
	@Override
	public void close() {
		all().forEach(TargetHeartbeat::close);
	}

}
