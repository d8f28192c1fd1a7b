package io.slotkeeper.slot;

import java.util.Map;

import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.Parameter;
import io.swagger.v3.oas.annotations.media.Content;
import io.swagger.v3.oas.annotations.media.Schema;
import io.swagger.v3.oas.annotations.responses.ApiResponse;
import io.swagger.v3.oas.annotations.tags.Tag;
import jakarta.validation.Valid;
import jakarta.validation.constraints.Pattern;

import org.springframework.http.HttpHeaders;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.PatchMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestHeader;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

import io.slotkeeper.audit.Auditor;
import io.slotkeeper.config.TargetProperties;
import io.slotkeeper.fleet.Fleet;
import io.slotkeeper.replication.SlotView;
import io.slotkeeper.slot.changing.SlotAudit;
import io.slotkeeper.slot.changing.SlotService;

/**
 * Makes a primary's slot failover-safe, or no longer synchronized: {@code PATCH} with
 * {@code {"failover": true}}.
 */
@RestController
@RequestMapping("/api/v1/targets/{target}/slots")
@Tag(name = "slots")
class SlotFailoverController {

	private final Fleet fleet;

	private final SlotService slots;

	private final Auditor auditor;

	private final SlotChanges changes;

	SlotFailoverController(Fleet fleet, SlotService slots, Auditor auditor, SlotChanges changes) {
		this.fleet = fleet;
		this.slots = slots;
		this.auditor = auditor;
		this.changes = changes;
	}

	@PatchMapping("/{slot}")
	@ApiResponse(responseCode = "200",
			description = "Changed (SlotView, with its new ETag), or with dryRun=true what"
					+ " would be done (SlotPlan)",
			content = @Content(schema = @Schema(oneOf = { SlotView.class, SlotPlan.class })))
	@Operation(summary = "Switch a primary slot's failover flag (PostgreSQL 17+)",
			description = "Runs ALTER_REPLICATION_SLOT … (FAILOVER true|false) over a replication connection: a "
					+ "failover slot is synchronized to standbys that set sync_replication_slots. The server waits "
					+ "for an active slot to be released, so an active one is refused with 409 unless force=true, "
					+ "which ends its consumer's session (the consumer reconnects). 422 before PostgreSQL 17, for a "
					+ "physical or temporary slot, and on a standby.")
	ResponseEntity<Object> patch(@PathVariable @Pattern(regexp = TargetProperties.NAME_PATTERN) String target,
			@PathVariable @Pattern(regexp = SlotController.NAME) String slot, @Valid @RequestBody SlotPatch request,
			@Parameter(description = "end the session holding an active slot") @RequestParam(
					defaultValue = "false") boolean force,
			@Parameter(description = SlotChanges.DRY_RUN) @RequestParam(defaultValue = "false") boolean dryRun,
			@Parameter(description = SlotChanges.IF_MATCH) @RequestHeader(name = HttpHeaders.IF_MATCH,
					required = false) String ifMatch) {
		Map<String, Object> parameters = Auditor.parameters("failover", request.failover(), "force", force, "dryRun",
				dryRun, "ifMatch", ifMatch);
		if (dryRun) {
			return this.changes.planned("slot.failover", target, slot, parameters,
					(found) -> this.slots.planFailover(found, slot, request.failover(), force, ifMatch));
		}
		SlotView changed = this.auditor.run("slot.failover", target, slot, parameters,
				() -> this.slots.failover(this.fleet.get(target), slot, request.failover(), force, ifMatch),
				(done) -> SlotAudit.done(200));
		return ResponseEntity.ok().eTag(changed.etag()).body(changed);
	}

}
