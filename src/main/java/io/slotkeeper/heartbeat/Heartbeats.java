package io.slotkeeper.heartbeat;

import java.time.Clock;
import java.time.Duration;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.Map;

import io.micrometer.core.instrument.MeterRegistry;

import io.slotkeeper.config.ConnectionProperties;
import io.slotkeeper.fleet.Fleet;
import io.slotkeeper.fleet.NodeConnector;
import io.slotkeeper.fleet.Target;

/**
 * The heartbeat of every target of the fleet, in the fleet's order. Targets are found in the fleet; this only says
 * which heartbeat is a target's.
 */
public class Heartbeats implements AutoCloseable {

	private final Map<Target, TargetHeartbeat> byTarget = new LinkedHashMap<>();

	/**
	 * Creates a heartbeat per target; nothing connects until the first attempt.
	 * @param fleet the targets
	 * @param connector opens sessions
	 * @param registry where the meters go
	 * @param clock the clock for timestamps
	 */
	public Heartbeats(Fleet fleet, NodeConnector connector, MeterRegistry registry, Clock clock) {
		fleet.all().forEach((target) -> this.byTarget.put(target, new TargetHeartbeat(target, connector, registry, clock)));
	}

	/**
	 * All heartbeats.
	 * @return the heartbeats in the fleet's order
	 */
	public Collection<TargetHeartbeat> all() {
		return this.byTarget.values();
	}

	/**
	 * A target's heartbeat.
	 * @param target a target of the fleet
	 * @return its heartbeat
	 */
	public TargetHeartbeat of(Target target) {
		return this.byTarget.get(target);
	}

	/**
	 * The longest a single attempt of any target can take: connecting, then one statement and the client's margin.
	 * @return the bound
	 */
	public Duration longestAttempt() {
		return this.byTarget.keySet()
			.stream()
			.map((target) -> target.properties().connection())
			.map((ConnectionProperties connection) -> connection.connectTimeout()
				.multipliedBy(2)
				.plus(connection.statementTimeout())
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
