package io.slotkeeper.failover;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import org.springframework.boot.health.contributor.CompositeHealthContributor;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthContributor;
import org.springframework.boot.health.contributor.HealthIndicator;

import io.slotkeeper.fleet.Target;

/**
 * The {@code failover} health, one child per target with replicas: DOWN when a logical
 * slot would not survive a failover to a replica ({@code notReady} says which and why) or
 * a replica holds an orphan that blocks synchronization ({@code orphans}, by replica), UP
 * when every one would, UNKNOWN before the first check. Not part of liveness or
 * readiness.
 */
public final class FailoverHealth {

	private FailoverHealth() {
	}

	// A server's databases have no replicas: only configured targets can have a child, so
	// the fleet's changes do not
	// matter here.
	public static HealthContributor of(List<Target> targets, FailoverStates states) {
		Map<String, HealthIndicator> children = new LinkedHashMap<>();
		targets.stream()
			.filter((target) -> !target.properties().replicas().isEmpty())
			.forEach((target) -> children.put(target.name(), () -> health(target.name(), states)));
		if (children.isEmpty()) {
			return (HealthIndicator) () -> Health.up().withDetail("targets with replicas", 0).build();
		}
		return CompositeHealthContributor.fromMap(children);
	}

	private static Health health(String target, FailoverStates states) {
		if (!states.checked(target)) {
			return Health.unknown().withDetail("reason", "not checked yet").build();
		}
		Map<String, String> notReady = states.notReady(target);
		Map<String, List<String>> orphans = new TreeMap<>();
		states.orphans(target)
			.forEach(
					(orphan) -> orphans.computeIfAbsent(orphan.node(), (node) -> new ArrayList<>()).add(orphan.slot()));
		if (notReady.isEmpty() && orphans.isEmpty()) {
			return Health.up().build();
		}
		Health.Builder health = Health.down().withDetail("notReady", notReady);
		if (!orphans.isEmpty()) {
			health.withDetail("orphans", orphans);
		}
		return health
			.withDetail("reason",
					"these slots would not survive a failover to a replica; see docs/healing-and-failover.md, Failover")
			.build();
	}

}
