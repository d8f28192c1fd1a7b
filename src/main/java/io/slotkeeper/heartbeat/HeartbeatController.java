package io.slotkeeper.heartbeat;

import java.util.List;

import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.tags.Tag;

import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;

import io.slotkeeper.fleet.Fleet;
import io.slotkeeper.problem.ProblemException;
import io.slotkeeper.problem.ProblemKind;

/**
 * The targets and their heartbeats.
 */
@RestController
@RequestMapping("/api/v1/targets")
@Tag(name = "targets", description = "Configured targets and their heartbeats")
class HeartbeatController {

	private final Fleet fleet;

	private final Heartbeats heartbeats;

	HeartbeatController(Fleet fleet, Heartbeats heartbeats) {
		this.fleet = fleet;
		this.heartbeats = heartbeats;
	}

	@GetMapping
	@Operation(summary = "Every target with its heartbeat status")
	List<TargetView> list() {
		return this.heartbeats.all().stream().map(TargetView::of).toList();
	}

	@GetMapping("/{target}")
	@Operation(summary = "One target with its heartbeat status")
	TargetView get(@PathVariable String target) {
		return TargetView.of(heartbeat(target));
	}

	@PostMapping("/{target}/heartbeat")
	@Operation(summary = "Write a heartbeat now and return its LSN and duration")
	HeartbeatResult beat(@PathVariable String target) throws InterruptedException {
		TargetHeartbeat heartbeat = heartbeat(target);
		if (!heartbeat.target().properties().heartbeat().enabled()) {
			throw new ProblemException(ProblemKind.HEARTBEAT_DISABLED, "Heartbeats are disabled for target '" + target
					+ "' (slotkeeper.targets[].heartbeat.enabled=false).").with("target", target);
		}
		HeartbeatOutcome outcome = heartbeat.beatNow(this.heartbeats.longestAttempt());
		if (!outcome.succeeded()) {
			throw new ProblemException(ProblemKind.TARGET_UNAVAILABLE,
					"The heartbeat to target '" + target + "' failed: " + outcome.failure().message())
				.with("target", target)
				.with("sqlState", outcome.failure().sqlState());
		}
		return new HeartbeatResult(target, outcome.lsn(), HeartbeatStatus.millis(outcome.duration()), outcome.at());
	}

	private TargetHeartbeat heartbeat(String target) {
		return this.heartbeats.of(this.fleet.get(target));
	}

}
