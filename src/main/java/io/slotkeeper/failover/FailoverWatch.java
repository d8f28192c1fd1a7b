package io.slotkeeper.failover;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.context.ApplicationEventPublisher;

import io.slotkeeper.audit.Auditor;
import io.slotkeeper.fleet.Fleet;
import io.slotkeeper.fleet.FleetListener;
import io.slotkeeper.fleet.Target;
import io.slotkeeper.sessions.ServerChange;

/**
 * Notices when another server answers for a target's primary: a failover is logged,
 * audited as {@code target.failover} (actor {@code slot-keeper}, both servers and
 * timelines), counted in {@code slotkeeper_target_failovers_total}, and
 * {@link TargetFailedOver} published, so that the target's slots are polled at once,
 * since the slots that survived are now on another server. A restart of the same server
 * is only logged.
 */
public final class FailoverWatch implements FleetListener {

	private static final Logger logger = LoggerFactory.getLogger(FailoverWatch.class);

	private final Auditor auditor;

	private final ApplicationEventPublisher events;

	private final Map<String, Counter> failovers = new ConcurrentHashMap<>();

	private final MeterRegistry registry;

	/**
	 * Starts watching every target of the fleet.
	 * @param fleet the fleet
	 * @param auditor where failovers are audited
	 * @param events where {@link TargetFailedOver} is published
	 * @param registry where failovers are counted
	 */
	public FailoverWatch(Fleet fleet, Auditor auditor, ApplicationEventPublisher events, MeterRegistry registry) {
		this.auditor = auditor;
		this.events = events;
		this.registry = registry;
		fleet.watch(this);
	}

	@Override
	public void joined(Target target) {
		this.failovers.put(target.name(),
				Counter.builder("slotkeeper.target.failovers")
					.description("Times another server took over as the target's primary, as this instance noticed")
					.tag("target", target.name())
					.register(this.registry));
		target.nodes().onServerChange(this::changed);
	}

	@Override
	public void left(Target target) {
		this.failovers.remove(target.name());
	}

	private void changed(ServerChange change) {
		String target = change.node().target();
		if (!change.node().primary()) {
			logger.info("Another server answers for {}: {}", change.node().describe(), change.describe());
			return;
		}
		if (!change.failover()) {
			logger.info("The primary of target '{}' restarted: {}", target, change.describe());
			return;
		}
		logger.warn("Failover of target '{}': {}; reading its slots now", target, change.describe());
		Counter failovers = this.failovers.get(target);
		if (failovers != null) {
			failovers.increment();
		}
		Map<String, Object> servers = new LinkedHashMap<>();
		servers.put("from", change.before().address() + ":" + change.before().port());
		servers.put("to", change.after().address() + ":" + change.after().port());
		if (change.after().timeline() != null) {
			servers.put("timeline", change.after().timeline());
		}
		this.auditor.recordOutcome(Auditor.SELF, "target.failover", target, null, servers,
				new Auditor.Summary("done", 200, change.describe(), Map.of(), null));
		this.events.publishEvent(new TargetFailedOver(target));
	}

}
