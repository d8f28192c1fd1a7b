package io.slotkeeper.slot;

import java.util.List;
import java.util.Map;

import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.Parameter;
import io.swagger.v3.oas.annotations.media.Content;
import io.swagger.v3.oas.annotations.media.Schema;
import io.swagger.v3.oas.annotations.responses.ApiResponse;
import io.swagger.v3.oas.annotations.tags.Tag;
import jakarta.validation.constraints.Pattern;

import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

import io.slotkeeper.audit.Auditor;
import io.slotkeeper.config.TargetProperties;
import io.slotkeeper.fleet.Fleet;
import io.slotkeeper.problem.ProblemException;
import io.slotkeeper.resnapshot.Resnapshot;
import io.slotkeeper.resnapshot.Signal;
import io.slotkeeper.slot.changing.ChangePlan;
import io.slotkeeper.slot.changing.SlotService;

/**
 * Asks a slot's Debezium connector to read its tables again, on demand: one
 * {@code execute-snapshot} signal row.
 */
@RestController
@RequestMapping("/api/v1/targets/{target}/slots")
@Tag(name = "slots")
class SlotResnapshotController {

	private final Fleet fleet;

	private final SlotService slots;

	private final Auditor auditor;

	private final SlotChanges changes;

	SlotResnapshotController(Fleet fleet, SlotService slots, Auditor auditor, SlotChanges changes) {
		this.fleet = fleet;
		this.slots = slots;
		this.auditor = auditor;
		this.changes = changes;
	}

	@PostMapping("/{slot}/resnapshot")
	@ApiResponse(responseCode = "200",
			description = "Sent (signalId, collections, sentAt), or with dryRun=true what"
					+ " would be sent (SlotPlan)",
			content = @Content(schema = @Schema(oneOf = { Resnapshot.class, SlotPlan.class })))
	@Operation(summary = "Send Debezium an execute-snapshot signal for the slot's tables",
			description = "Inserts one row into the signal table (resnapshot.signal-table, else the connector's "
					+ "signal.data.collection) asking for the tables in resnapshot.collections, else the connector's "
					+ "table.include.list. 422 when either is missing or is a pattern, or the table does not exist; "
					+ "403 when slot-keeper's role may not insert into it.")
	ResponseEntity<Object> resnapshot(@PathVariable @Pattern(regexp = TargetProperties.NAME_PATTERN) String target,
			@PathVariable @Pattern(regexp = SlotController.NAME) String slot,
			@Parameter(description = SlotChanges.DRY_RUN) @RequestParam(defaultValue = "false") boolean dryRun) {
		Map<String, Object> parameters = Auditor.parameters("dryRun", dryRun);
		if (dryRun) {
			return this.changes.planned("slot.resnapshot", target, slot, parameters, (found) -> {
				try {
					Signal signal = this.slots.followUps().resnapshots().plan(found, slot);
					return new ChangePlan("slot.resnapshot", target, slot,
							List.of("insert an execute-snapshot signal (" + signal.type() + ") into " + signal.table()
									+ " for " + String.join(", ", signal.collections())),
							null);
				}
				catch (ProblemException refusal) {
					return new ChangePlan("slot.resnapshot", target, slot, List.of(), refusal);
				}
			});
		}
		return ResponseEntity.ok(this.auditor.run("slot.resnapshot", target, slot, parameters,
				() -> this.slots.followUps().resnapshots().send(this.fleet.get(target), slot),
				(sent) -> new Auditor.Summary("done", 200,
						"signal " + sent.signalId() + " for " + String.join(", ", sent.collections()), Map.of(),
						null)));
	}

}
