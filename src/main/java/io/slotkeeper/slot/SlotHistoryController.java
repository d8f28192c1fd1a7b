package io.slotkeeper.slot;

import java.time.Clock;
import java.time.Instant;
import java.util.List;

import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.tags.Tag;
import jakarta.validation.constraints.Pattern;

import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;

import io.slotkeeper.config.TargetProperties;
import io.slotkeeper.fleet.Fleet;
import io.slotkeeper.fleet.Target;
import io.slotkeeper.problem.ProblemException;
import io.slotkeeper.problem.ProblemKind;
import io.slotkeeper.watching.RetainedHistory;
import io.slotkeeper.watching.SlotWatch;

/**
 * A slot's retained WAL over the last hour, from the polls: what the operator's page
 * draws.
 */
@RestController
@RequestMapping("/api/v1/targets/{target}/slots")
@Tag(name = "slots")
class SlotHistoryController {

	private final Fleet fleet;

	private final RetainedHistory history;

	private final Clock clock;

	SlotHistoryController(Fleet fleet, SlotWatch watch, Clock clock) {
		this.fleet = fleet;
		this.clock = clock;
		this.history = watch.history();
	}

	@GetMapping("/{slot}/history")
	@Operation(summary = "The WAL a slot of the primary retained over the last hour",
			description = "One point per " + RetainedHistory.STEP_SECONDS + " s (the most retained in that step, from "
					+ "the slot polls; null where no poll read it), at most " + RetainedHistory.POINTS + " points, "
					+ "kept in memory by this instance. 404 when no poll saw the slot retain WAL in the hour.")
	SlotHistory history(@PathVariable @Pattern(regexp = TargetProperties.NAME_PATTERN) String target,
			@PathVariable @Pattern(regexp = SlotController.NAME) String slot) {
		Target found = this.fleet.get(target);
		RetainedHistory.Series series = this.history.of(found.name(), slot, this.clock.instant())
			.orElseThrow(() -> new ProblemException(ProblemKind.SLOT_NOT_FOUND,
					"No poll of target '" + target + "' saw slot '" + slot + "' retain WAL in the last hour.")
				.with("target", target)
				.with("slot", slot));
		return new SlotHistory(found.name(), slot, series.from(), series.stepSeconds(), series.retainedWalBytes());
	}

	/**
	 * A slot's retained WAL at even steps.
	 *
	 * @param target the target
	 * @param slot the slot
	 * @param from the start of the first step
	 * @param stepSeconds seconds per step
	 * @param retainedWalBytes the most WAL the slot retained in each step, {@code null}
	 * where no poll read it
	 */
	record SlotHistory(String target, String slot, Instant from, int stepSeconds, List<Long> retainedWalBytes) {
	}

}
