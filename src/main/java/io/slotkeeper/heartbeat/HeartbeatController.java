package io.slotkeeper.heartbeat;

import java.util.List;

import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.tags.Tag;

import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;

/**
 * The targets and their heartbeats.
 */
@RestController
@RequestMapping("/api/v1/targets")
@Tag(name = "targets", description = "Configured targets and their heartbeats")
class HeartbeatController {

	private final Heartbeats heartbeats;

	HeartbeatController(Heartbeats heartbeats) {
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
		return TargetView.of(this.heartbeats.get(target));
	}

	@PostMapping("/{target}/heartbeat")
	@Operation(summary = "Write a heartbeat now and return its LSN and duration")
	HeartbeatResult beat(@PathVariable String target) throws InterruptedException {
		TargetHeartbeat heartbeat = this.heartbeats.get(target);
		if (!heartbeat.properties().heartbeat().enabled()) {
			throw new HeartbeatDisabledException(target);
		}
		HeartbeatOutcome outcome = heartbeat.beatNow(this.heartbeats.longestAttempt());
		if (!outcome.succeeded()) {
			throw new TargetUnavailableException(target, outcome.failure());
		}
		return new HeartbeatResult(target, outcome.lsn(), HeartbeatStatus.millis(outcome.duration()), outcome.at());
	}

}
