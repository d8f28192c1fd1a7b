package io.slotkeeper.slot.watching;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.springframework.boot.health.contributor.CompositeHealthContributor;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthContributor;
import org.springframework.boot.health.contributor.HealthIndicator;

import io.slotkeeper.fleet.Target;

/**
 * The {@code failover} health, one child per target with replicas: DOWN when a logical slot would not survive a
 * failover to a replica ({@code notReady} says which and why), UP when every one would, UNKNOWN before the first
 * check. Not part of liveness or readiness.
 */
final class FailoverHealth {

	private FailoverHealth() {
	}

	static HealthContributor of(List<Target> targets, FailoverStates states) {
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
		if (notReady.isEmpty()) {
			return Health.up().build();
		}
		return Health.down()
			.withDetail("notReady", notReady)
			.withDetail("reason", "these slots would not survive a failover to a replica; see README, Failover")
			.build();
	}

}
