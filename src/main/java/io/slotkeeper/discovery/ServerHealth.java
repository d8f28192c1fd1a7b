package io.slotkeeper.discovery;

import java.util.LinkedHashMap;
import java.util.Map;

import org.springframework.boot.health.contributor.CompositeHealthContributor;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthContributor;
import org.springframework.boot.health.contributor.HealthIndicator;

/**
 * The {@code servers} health, one child per configured server: UP with how many of its
 * databases are targets, DOWN when its slots could not be read at the last scan (its
 * databases stay targets) or when some of its databases are not targets for want of
 * sessions ({@code uncovered}), UNKNOWN before the first scan. Not part of liveness or
 * readiness.
 */
final class ServerHealth {

	private ServerHealth() {
	}

	static HealthContributor of(ServerDiscovery discovery) {
		if (discovery.scans().isEmpty()) {
			return (HealthIndicator) () -> Health.up().withDetail("servers", 0).build();
		}
		Map<String, HealthIndicator> children = new LinkedHashMap<>();
		discovery.scans().forEach((scan) -> children.put(scan.server().name(), () -> health(scan)));
		return CompositeHealthContributor.fromMap(children);
	}

	private static Health health(ServerScan scan) {
		ServerScan.ScanState state = scan.state();
		if (state.at() == null) {
			return Health.unknown().withDetail("reason", "not scanned yet").build();
		}
		Health.Builder health = (state.error() != null) ? Health.down().withDetail("error", state.error())
				: Health.up();
		if (!state.uncovered().isEmpty()) {
			health.down()
				.withDetail("reason", "more databases than max-sessions allows: those uncovered are not heartbeated")
				.withDetail("uncovered", state.uncovered());
		}
		if (state.maxSessions() > 0) {
			health.withDetail("maxSessions", state.maxSessions()).withDetail("sessionsNeeded", state.sessionsNeeded());
		}
		return health.withDetail("databases", state.databases())
			.withDetail("discovers", scan.server().properties().discovers())
			.withDetail("scannedAt", state.at())
			.build();
	}

}
