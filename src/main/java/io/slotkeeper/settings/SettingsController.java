package io.slotkeeper.settings;

import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.tags.Tag;
import jakarta.validation.constraints.Pattern;

import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RestController;

import io.slotkeeper.config.TargetProperties;
import io.slotkeeper.fleet.Fleet;
import io.slotkeeper.fleet.Target;
import io.slotkeeper.problem.ProblemException;
import io.slotkeeper.problem.ProblemKind;

/**
 * A target's server settings as its last poll read and judged them.
 */
@RestController
@Tag(name = "targets")
class SettingsController {

	private final Fleet fleet;

	private final SettingsAudit audit;

	SettingsController(Fleet fleet, SettingsAudit audit) {
		this.fleet = fleet;
		this.audit = audit;
	}

	@GetMapping("/api/v1/targets/{target}/settings")
	@Operation(summary = "The settings audit of the target's server",
			description = "What the server is configured to do to its slots, read with each slot poll and judged: "
					+ "max_slot_wal_keep_size against the WAL written per second over the last hour and the target's "
					+ "loss-warning, idle_replication_slot_timeout (PG 18), wal_sender_timeout, "
					+ "synchronized_standby_slots (PG 17), wal_level, room left in max_replication_slots and "
					+ "max_wal_senders. 503 before the target's first good poll.")
	SettingsView settings(@PathVariable @Pattern(regexp = TargetProperties.NAME_PATTERN) String target) {
		Target found = this.fleet.get(target);
		return this.audit.of(found.name())
			.orElseThrow(() -> new ProblemException(ProblemKind.TARGET_UNAVAILABLE,
					"Target '" + target
							+ "' has not been polled successfully yet: its settings are read with its slots.")
				.with("target", target));
	}

}
