package io.slotkeeper.slot;

import java.net.URI;
import java.util.Map;

import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.Parameter;
import io.swagger.v3.oas.annotations.media.ArraySchema;
import io.swagger.v3.oas.annotations.media.Content;
import io.swagger.v3.oas.annotations.media.Schema;
import io.swagger.v3.oas.annotations.responses.ApiResponse;
import io.swagger.v3.oas.annotations.tags.Tag;
import jakarta.validation.Valid;
import jakarta.validation.constraints.Pattern;
import jakarta.validation.constraints.Size;

import org.springframework.http.HttpHeaders;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.DeleteMapping;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestHeader;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

import io.slotkeeper.audit.Auditor;
import io.slotkeeper.config.SlotPolicyProperties;
import io.slotkeeper.config.TargetProperties;
import io.slotkeeper.fleet.Fleet;
import io.slotkeeper.replication.SlotFilter;
import io.slotkeeper.replication.SlotView;
import io.slotkeeper.slot.changing.RecreateResult;
import io.slotkeeper.slot.changing.SlotAudit;
import io.slotkeeper.slot.changing.SlotService;

/**
 * The replication-slot runbook as REST calls. Every change accepts {@code dryRun=true}
 * and is audited.
 */
@RestController
@RequestMapping("/api/v1/targets/{target}/slots")
@Tag(name = "slots", description = "Replication slots of a target's server: list, create, drop, recreate")
class SlotController {

	/**
	 * Slot and plugin names: checked before anything runs, then bound as parameters.
	 */
	static final String NAME = SlotPolicyProperties.NAME_PATTERN;

	private static final String NODE = TargetProperties.NAME_PATTERN;

	private static final String NODE_DOC = "primary (default) or a replica's name";

	private final Fleet fleet;

	private final SlotService slots;

	private final SlotReader reader;

	private final Auditor auditor;

	private final SlotChanges changes;

	private final SlotListings listings;

	SlotController(Fleet fleet, SlotService slots, SlotReader reader, Auditor auditor, SlotChanges changes,
			SlotListings listings) {
		this.fleet = fleet;
		this.slots = slots;
		this.reader = reader;
		this.auditor = auditor;
		this.changes = changes;
		this.listings = listings;
	}

	@GetMapping
	@Operation(summary = "Every slot of the target's server",
			description = "Columns the server's version lacks are null. retainedWalBytes is the WAL the slot pins.")
	@ApiResponse(responseCode = "200", description = "OK", content = @Content(mediaType = "application/json",
			array = @ArraySchema(schema = @Schema(implementation = SlotView.class))))
	ResponseEntity<byte[]> list(@PathVariable @Pattern(regexp = TargetProperties.NAME_PATTERN) String target,
			@RequestParam(required = false) @Size(max = 63) String database,
			@RequestParam(required = false) @Pattern(regexp = "^(reserved|extended|unreserved|lost)$") String walStatus,
			@RequestParam(required = false) Boolean active,
			@Parameter(description = "primary (default), a replica's name, or all") @RequestParam(
					required = false) @Pattern(regexp = NODE) String node) {
		return ResponseEntity.ok()
			.contentType(MediaType.APPLICATION_JSON)
			.body(this.listings.list(this.fleet.get(target), node, new SlotFilter(database, walStatus, active)));
	}

	@GetMapping("/{slot}")
	@Operation(summary = "One slot", description = "ETag is the slot's entity tag: send it as If-Match with a change.")
	ResponseEntity<SlotView> get(@PathVariable @Pattern(regexp = TargetProperties.NAME_PATTERN) String target,
			@PathVariable @Pattern(regexp = NAME) String slot,
			@Parameter(description = NODE_DOC) @RequestParam(required = false) @Pattern(regexp = NODE) String node) {
		SlotView view = this.reader.get(this.fleet.get(target), node, slot);
		return ResponseEntity.ok().eTag(view.etag()).body(view);
	}

	@PostMapping
	@ApiResponse(responseCode = "201", description = "Created; Location names the new slot",
			content = @Content(schema = @Schema(implementation = SlotView.class)))
	@ApiResponse(responseCode = "200", description = "dryRun=true: what would be done, nothing ran",
			content = @Content(schema = @Schema(implementation = SlotPlan.class)))
	@Operation(summary = "Create a slot", description = "201 with Location and the new slot; 409 if it exists; 422 "
			+ "when the server's version cannot do it (twoPhase before 14, failover before 17).")
	ResponseEntity<Object> create(@PathVariable @Pattern(regexp = TargetProperties.NAME_PATTERN) String target,
			@Valid @RequestBody CreateSlotRequest request,
			@Parameter(description = NODE_DOC) @RequestParam(required = false) @Pattern(regexp = NODE) String node,
			@Parameter(description = SlotChanges.DRY_RUN) @RequestParam(defaultValue = "false") boolean dryRun) {
		Map<String, Object> parameters = Auditor.parameters("dryRun", dryRun, "node", node, "type", request.type(),
				"plugin", request.plugin(), "twoPhase", request.twoPhase(), "failover", request.failover());
		if (dryRun) {
			return this.changes.planned("slot.create", target, request.name(), parameters,
					(found) -> this.slots.planCreate(found, node, request.toSpec(target)));
		}
		SlotView created = this.auditor.run("slot.create", target, request.name(), parameters,
				() -> this.slots.create(this.fleet.get(target), node, request.toSpec(target)),
				(done) -> SlotAudit.done(201));
		return ResponseEntity
			.created(URI.create(
					"/api/v1/targets/" + target + "/slots/" + request.name() + ((node != null) ? "?node=" + node : "")))
			.body(created);
	}

	@DeleteMapping("/{slot}")
	@ApiResponse(responseCode = "204", description = "Dropped")
	@ApiResponse(responseCode = "200", description = "dryRun=true: what would be done, nothing ran",
			content = @Content(schema = @Schema(implementation = SlotPlan.class)))
	@Operation(summary = "Drop a slot", description = "An active slot is refused with 409 (activePid says who holds "
			+ "it) unless force=true, which ends that backend's session first.")
	ResponseEntity<Object> drop(@PathVariable @Pattern(regexp = TargetProperties.NAME_PATTERN) String target,
			@PathVariable @Pattern(regexp = NAME) String slot,
			@Parameter(description = "end the session holding an active slot") @RequestParam(
					defaultValue = "false") boolean force,
			@Parameter(description = NODE_DOC) @RequestParam(required = false) @Pattern(regexp = NODE) String node,
			@Parameter(description = SlotChanges.DRY_RUN) @RequestParam(defaultValue = "false") boolean dryRun,
			@Parameter(description = SlotChanges.IF_MATCH) @RequestHeader(name = HttpHeaders.IF_MATCH,
					required = false) String ifMatch) {
		Map<String, Object> parameters = SlotChanges.parameters(force, dryRun, node, ifMatch);
		return dryRun
				? this.changes.planned("slot.drop", target, slot, parameters,
						(found) -> this.slots.planDrop(found, node, slot, force, ifMatch))
				: dropped(target, slot, parameters,
						() -> this.slots.drop(this.fleet.get(target), node, slot, force, ifMatch));
	}

	private ResponseEntity<Object> dropped(String target, String slot, Map<String, Object> parameters, Runnable drop) {
		this.auditor.run("slot.drop", target, slot, parameters, () -> {
			drop.run();
			return slot;
		}, (done) -> SlotAudit.done(204));
		return ResponseEntity.noContent().build();
	}

	@PostMapping("/{slot}/recreate")
	@ApiResponse(responseCode = "200",
			description = "Recreated (RecreateResult), or with dryRun=true what would be " + "done (SlotPlan)",
			content = @Content(schema = @Schema(oneOf = { RecreateResult.class, SlotPlan.class })))
	@Operation(summary = "Drop a slot and create it again with the same options",
			description = "Refused with 409 unless the slot is invalidated (wal_status lost) or force=true. The answer "
					+ "names the skipped LSN range that the consumer will never see, and restarts the slot's "
					+ "connector when one is configured.")
	ResponseEntity<Object> recreate(@PathVariable @Pattern(regexp = TargetProperties.NAME_PATTERN) String target,
			@PathVariable @Pattern(regexp = NAME) String slot,
			@Parameter(
					description = "recreate a slot that is not invalidated; end the session holding it") @RequestParam(
							defaultValue = "false") boolean force,
			@Parameter(description = NODE_DOC) @RequestParam(required = false) @Pattern(regexp = NODE) String node,
			@Parameter(description = SlotChanges.DRY_RUN) @RequestParam(defaultValue = "false") boolean dryRun,
			@Parameter(description = SlotChanges.IF_MATCH) @RequestHeader(name = HttpHeaders.IF_MATCH,
					required = false) String ifMatch) {
		Map<String, Object> parameters = SlotChanges.parameters(force, dryRun, node, ifMatch);
		return dryRun
				? this.changes.planned("slot.recreate", target, slot, parameters,
						(found) -> this.slots.recreates().planRecreate(found, node, slot, force, ifMatch))
				: ResponseEntity.ok(this.auditor.run("slot.recreate", target, slot, parameters,
						() -> this.slots.recreates().recreate(this.fleet.get(target), node, slot, force, ifMatch),
						SlotAudit::recreated));
	}

}
