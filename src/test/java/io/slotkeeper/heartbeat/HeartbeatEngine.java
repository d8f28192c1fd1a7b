package io.slotkeeper.heartbeat;

import java.time.Clock;
import java.util.List;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;

import io.slotkeeper.config.TargetProperties;
import io.slotkeeper.fleet.Fleet;
import io.slotkeeper.fleet.Instance;
import io.slotkeeper.fleet.Rendezvous;
import io.slotkeeper.lanes.LaneWatch;
import io.slotkeeper.sessions.NodeConnector;

/**
 * The heartbeat engine as the application wires it, without the rest of the application,
 * for tests.
 */
final class HeartbeatEngine implements AutoCloseable {

	final SimpleMeterRegistry registry = new SimpleMeterRegistry();

	final Fleet fleet;

	final Heartbeats heartbeats;

	final HeartbeatScheduler scheduler;

	private HeartbeatEngine(NodeConnector connector, Instance instance, TargetProperties... targets) {
		this.fleet = new Fleet(List.of(targets), List.of(), connector, instance, java.time.Clock.systemUTC());
		this.heartbeats = new Heartbeats(this.fleet, connector, this.registry, Clock.systemUTC());
		this.scheduler = new HeartbeatScheduler(this.heartbeats, this.fleet, this.heartbeats.longestAttempt(),
				new LaneWatch(this.registry, Clock.systemUTC()));
	}

	static HeartbeatEngine started(TargetProperties... targets) {
		return started(new NodeConnector(java.time.Clock.systemUTC()), targets);
	}

	static HeartbeatEngine started(NodeConnector connector, TargetProperties... targets) {
		return started(connector, Instance.random(), targets);
	}

	static HeartbeatEngine started(Instance instance, TargetProperties... targets) {
		return started(new NodeConnector(java.time.Clock.systemUTC()), instance, targets);
	}

	static HeartbeatEngine started(NodeConnector connector, Instance instance, TargetProperties... targets) {
		HeartbeatEngine engine = new HeartbeatEngine(connector, instance, targets);
		engine.scheduler.start();
		return engine;
	}

	TargetHeartbeat target(String name) {
		return this.heartbeats.of(this.fleet.get(name));
	}

	HeartbeatStatus status(String name) {
		return target(name).status();
	}

	/**
	 * Two instances, the one rendezvous hashing prefers for a target first.
	 * @param target the target's name
	 * @return the preferred instance, then the other
	 */
	static List<Instance> preferredFirst(String target) {
		Instance one = Instance.named("instance-a");
		Instance other = Instance.named("instance-b");
		return (Rendezvous.score(target, one.key()) > Rendezvous.score(target, other.key())) ? List.of(one, other)
				: List.of(other, one);
	}

	@Override
	public void close() {
		this.scheduler.stop();
		this.heartbeats.close();
		this.fleet.close();
	}

}
