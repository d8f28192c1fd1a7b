package io.slotkeeper.heartbeat;

import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;

import io.micrometer.core.instrument.MeterRegistry;

import io.slotkeeper.config.ConnectionProperties;
import io.slotkeeper.fleet.Fleet;
import io.slotkeeper.fleet.FleetListener;
import io.slotkeeper.fleet.Target;
import io.slotkeeper.sessions.NodeConnector;

/**
 * The heartbeat of every target of the fleet, in the fleet's order. Targets are found in
 * the fleet; this only says which heartbeat is a target's, made when the target joins the
 * fleet and closed when it leaves.
 */
public class Heartbeats implements AutoCloseable, FleetListener {

	private final Map<Target, TargetHeartbeat> byTarget = new ConcurrentHashMap<>();

	private final NodeConnector connector;

	private final MeterRegistry registry;

	private final Clock clock;

	private final Fleet fleet;

	/**
	 * Creates a heartbeat per target; nothing connects until the first attempt.
	 * @param fleet the targets
	 * @param connector opens sessions
	 * @param registry where the meters go
	 * @param clock the clock for timestamps
	 */
	public Heartbeats(Fleet fleet, NodeConnector connector, MeterRegistry registry, Clock clock) {
		this.connector = connector;
		this.registry = registry;
		this.clock = clock;
		this.fleet = fleet;
		fleet.watch(this);
	}

	@Override
	public void joined(Target target) {
		this.byTarget.put(target, new TargetHeartbeat(target, this.connector, this.registry, this.clock));
	}

	@Override
	public void left(Target target) {
		TargetHeartbeat heartbeat = this.byTarget.remove(target);
		if (heartbeat != null) {
			heartbeat.close();
		}
	}

	/**
	 * All heartbeats.
	 * @return the heartbeats in the fleet's order
	 */
	public List<TargetHeartbeat> all() {
		return this.fleet.all().stream().map(this.byTarget::get).filter(Objects::nonNull).toList();
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
	 * The longest a single attempt of any target can take: connecting, then one statement
	 * and the client's margin.
	 * @return the bound
	 */
	public Duration longestAttempt() {
		return this.fleet.connections()
			.stream()
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
