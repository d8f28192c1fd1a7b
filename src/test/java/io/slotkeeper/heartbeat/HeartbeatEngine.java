package io.slotkeeper.heartbeat;

import java.time.Clock;
import java.util.List;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;

import io.slotkeeper.config.TargetProperties;
import io.slotkeeper.fleet.Fleet;
import io.slotkeeper.fleet.NodeConnector;

/**
 * The heartbeat engine as the application wires it, without the rest of the application, for tests.
 */
final class HeartbeatEngine implements AutoCloseable {

	final SimpleMeterRegistry registry = new SimpleMeterRegistry();

	final Fleet fleet;

	final Heartbeats heartbeats;

	final HeartbeatScheduler scheduler;

	private HeartbeatEngine(NodeConnector connector, TargetProperties... targets) {
		this.fleet = new Fleet(List.of(targets), connector);
		this.heartbeats = new Heartbeats(this.fleet, connector, this.registry, Clock.systemUTC());
		this.scheduler = new HeartbeatScheduler(this.heartbeats.all().stream().toList(),
				this.heartbeats.longestAttempt());
	}

	static HeartbeatEngine started(TargetProperties... targets) {
		return started(new NodeConnector(), targets);
	}

	static HeartbeatEngine started(NodeConnector connector, TargetProperties... targets) {
		HeartbeatEngine engine = new HeartbeatEngine(connector, targets);
		engine.scheduler.start();
		return engine;
	}

	TargetHeartbeat target(String name) {
		return this.heartbeats.of(this.fleet.get(name));
	}

	HeartbeatStatus status(String name) {
		return target(name).status();
	}

	@Override
	public void close() {
		this.scheduler.stop();
		this.heartbeats.close();
		this.fleet.close();
	}

}
