package io.slotkeeper.lanes;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthContributor;
import org.springframework.boot.health.contributor.HealthIndicator;

/**
 * The {@code lanes} health: DOWN while a round of a lane that talks to a server has run
 * past its bound ({@link LaneWatch}), with each such round's lane, target, time and where
 * its thread waits; UP otherwise. Not part of liveness or readiness: a restart would not
 * make a hung server answer.
 */
final class LaneHealth {

	private LaneHealth() {
	}

	static HealthContributor of(LaneWatch lanes) {
		return (HealthIndicator) () -> health(lanes.overdue());
	}

	private static Health health(List<LaneWatch.Overdue> overdue) {
		if (overdue.isEmpty()) {
			return Health.up().build();
		}
		List<Map<String, Object>> rounds = overdue.stream().map(LaneHealth::detail).toList();
		return Health.down()
			.withDetail("overdue", rounds)
			.withDetail("reason", "rounds have not finished within their bound: a statement or call hangs although"
					+ " every one has a timeout; each was interrupted and its lane goes on without it (see the log"
					+ " line 'has not finished after')")
			.build();
	}

	private static Map<String, Object> detail(LaneWatch.Overdue round) {
		Map<String, Object> detail = new LinkedHashMap<>();
		detail.put("lane", round.lane());
		if (round.target() != null) {
			detail.put("target", round.target());
		}
		detail.put("startedAt", round.started());
		detail.put("runningSeconds", round.running().toSeconds());
		detail.put("boundSeconds", round.bound().toSeconds());
		detail.put("waitsIn", round.waitsIn());
		return detail;
	}

}
