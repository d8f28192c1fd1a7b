package io.slotkeeper.heartbeat;

import java.util.List;
import java.util.Map;

import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.Parameter;
import io.swagger.v3.oas.annotations.media.Content;
import io.swagger.v3.oas.annotations.media.Schema;
import io.swagger.v3.oas.annotations.responses.ApiResponse;
import io.swagger.v3.oas.annotations.tags.Tag;
import jakarta.validation.constraints.Pattern;

import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

import io.slotkeeper.audit.Auditor;
import io.slotkeeper.config.TargetProperties;
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

	private final Auditor auditor;

	HeartbeatController(Fleet fleet, Heartbeats heartbeats, Auditor auditor) {
		this.fleet = fleet;
		this.heartbeats = heartbeats;
		this.auditor = auditor;
	}

	@GetMapping
	@Operation(summary = "Every target with its heartbeat status")
	List<TargetView> list() {
		return this.heartbeats.all().stream().map(TargetView::of).toList();
	}

	@GetMapping("/{target}")
	@Operation(summary = "One target with its heartbeat status")
	TargetView get(@PathVariable @Pattern(regexp = TargetProperties.NAME_PATTERN) String target) {
		return TargetView.of(heartbeat(target));
	}

	@PostMapping("/{target}/heartbeat")
	@ApiResponse(responseCode = "200",
			description = "Written (HeartbeatResult), or with dryRun=true what would be " + "written (HeartbeatPlan)",
			content = @Content(schema = @Schema(oneOf = { HeartbeatResult.class, HeartbeatPlan.class })))
	@Operation(summary = "Write a heartbeat now and return its LSN and duration", description = "Audited as "
			+ "heartbeat, dry runs included. 409 when heartbeats are disabled for the target.")
	Object beat(@PathVariable @Pattern(regexp = TargetProperties.NAME_PATTERN) String target,
			@Parameter(description = "answer what would be written; write nothing") @RequestParam(
					defaultValue = "false") boolean dryRun) {
		Map<String, Object> parameters = Auditor.parameters("dryRun", dryRun);
		if (dryRun) {
			return this.auditor.run("heartbeat", target, null, parameters, () -> HeartbeatPlan.of(enabled(target)),
					(plan) -> new Auditor.Summary("dry-run", 200, null, Map.of(), null));
		}
		return this.auditor.run("heartbeat", target, null, parameters, () -> write(enabled(target)),
				(result) -> new Auditor.Summary("done", 200, null, Map.of("lsn", result.lsn()), null));
	}

	private HeartbeatResult write(TargetHeartbeat heartbeat) {
		HeartbeatOutcome outcome;
		try {
			outcome = heartbeat.beatNow(this.heartbeats.longestAttempt());
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException("interrupted while waiting for the heartbeat", ex);
		}
		String target = heartbeat.target().name();
		if (!outcome.succeeded()) {
			throw new ProblemException(ProblemKind.TARGET_UNAVAILABLE,
					"The heartbeat to target '" + target + "' failed: " + outcome.failure().message())
				.with("target", target)
				.with("sqlState", outcome.failure().sqlState());
		}
		return new HeartbeatResult(target, outcome.lsn(), HeartbeatStatus.millis(outcome.duration()), outcome.at());
	}

	private TargetHeartbeat enabled(String target) {
		TargetHeartbeat heartbeat = heartbeat(target);
		if (!heartbeat.target().properties().heartbeat().enabled()) {
			throw new ProblemException(ProblemKind.HEARTBEAT_DISABLED, "Heartbeats are disabled for target '" + target
					+ "' (slotkeeper.targets[].heartbeat.enabled=false).")
				.with("target", target);
		}
		return heartbeat;
	}

	private TargetHeartbeat heartbeat(String target) {
		return this.heartbeats.of(this.fleet.get(target));
	}

}
