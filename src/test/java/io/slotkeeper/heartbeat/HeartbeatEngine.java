package io.slotkeeper.heartbeat;

import java.time.Clock;
import java.util.Arrays;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;

import io.slotkeeper.config.TargetProperties;
import io.slotkeeper.target.TargetConnector;

/**
 * The heartbeat engine as the application wires it, without the rest of the application, for tests.
 */
final class HeartbeatEngine implements AutoCloseable {

	final SimpleMeterRegistry registry = new SimpleMeterRegistry();

	final Heartbeats heartbeats;

	final HeartbeatScheduler scheduler;

	private HeartbeatEngine(TargetConnector connector, TargetProperties... targets) {
		this.heartbeats = new Heartbeats(Arrays.stream(targets)
			.map((target) -> new TargetHeartbeat(target, connector, this.registry, Clock.systemUTC()))
			.toList());
		this.scheduler = new HeartbeatScheduler(this.heartbeats.all().stream().toList(),
				this.heartbeats.longestAttempt());
	}

	static HeartbeatEngine started(TargetProperties... targets) {
		return started(new TargetConnector(), targets);
	}

	static HeartbeatEngine started(TargetConnector connector, TargetProperties... targets) {
		HeartbeatEngine engine = new HeartbeatEngine(connector, targets);
		engine.scheduler.start();
		return engine;
	}

	TargetHeartbeat target(String name) {
		return this.heartbeats.get(name);
	}

	HeartbeatStatus status(String name) {
		return target(name).status();
	}

	@Override
	public void close() {
		this.scheduler.stop();
		this.heartbeats.close();
	}

}
