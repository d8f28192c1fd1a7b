package io.slotkeeper.heartbeat;

import java.util.LinkedHashMap;
import java.util.Map;

import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthContributor;
import org.springframework.boot.health.contributor.Status;

import io.slotkeeper.config.HeartbeatProperties;
import io.slotkeeper.fleet.Fleet;
import io.slotkeeper.fleet.FleetHealth;

/**
 * The {@code heartbeat} health: one child per target, with the target's status as
 * details. It is not part of the liveness or readiness groups, so a target that is down
 * never restarts or unroutes slot-keeper, whose API is how operators fix it.
 */
final class HeartbeatHealth {

	private HeartbeatHealth() {
	}

	static HealthContributor of(Fleet fleet, Heartbeats heartbeats) {
		return FleetHealth.of(fleet, (target) -> true, (target) -> health(heartbeats.of(target)),
				Health.up().withDetail("targets", 0).build());
	}

	private static Health health(TargetHeartbeat heartbeat) {
		if (heartbeat == null) {
			return Health.unknown().withDetail("reason", "left the fleet").build();
		}
		HeartbeatStatus status = heartbeat.status();
		HeartbeatProperties settings = heartbeat.target().properties().heartbeat();
		Map<String, Object> details = new LinkedHashMap<>();
		details.put("mode", settings.mode().name().toLowerCase());
		details.put("interval", settings.interval().toString());
		putIfPresent(details, "reason", status.reason());
		putIfPresent(details, "lastSuccessAt", status.lastSuccessAt());
		putIfPresent(details, "lastLsn", status.lastLsn());
		putIfPresent(details, "lastError", status.lastError());
		details.put("consecutiveFailures", status.consecutiveFailures());
		details.put("emissions", status.emissions());
		details.put("failures", status.failures());
		putIfPresent(details, "serverVersion", status.serverVersion());
		putIfPresent(details, "owner", status.owner());
		putIfPresent(details, "standbySnapshot", status.standbySnapshot());
		putIfPresent(details, "walFloor", status.walFloor());
		return Health.status(new Status(status.health())).withDetails(details).build();
	}

	private static void putIfPresent(Map<String, Object> details, String key, Object value) {
		if (value != null) {
			details.put(key, value);
		}
	}

}
