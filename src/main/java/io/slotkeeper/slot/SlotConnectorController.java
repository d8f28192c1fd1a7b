package io.slotkeeper.slot;

import java.util.Map;

import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.tags.Tag;
import jakarta.validation.constraints.Pattern;

import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;

import io.slotkeeper.audit.Auditor;
import io.slotkeeper.config.TargetProperties;
import io.slotkeeper.connect.ConnectorOutcome;
import io.slotkeeper.fleet.Fleet;
import io.slotkeeper.handover.ConnectorRestarts;
import io.slotkeeper.slot.changing.SlotAudit;

/**
 * A slot's Kafka Connect connector: its status as Kafka Connect sees it now, and a
 * restart of it and its failed tasks, audited.
 */
@RestController
@RequestMapping("/api/v1/targets/{target}/slots")
@Tag(name = "slots", description = "Replication slots of a target's server: list, create, drop, recreate")
class SlotConnectorController {

	private static final String NAME = SlotController.NAME;

	private final Fleet fleet;

	private final ConnectorRestarts restarts;

	private final SlotReader reader;

	private final Auditor auditor;

	SlotConnectorController(Fleet fleet, ConnectorRestarts restarts, SlotReader reader, Auditor auditor) {
		this.fleet = fleet;
		this.restarts = restarts;
		this.reader = reader;
		this.auditor = auditor;
	}

	@PostMapping("/{slot}/connector/restart")
	@Operation(summary = "Restart the slot's Kafka Connect connector and its failed tasks")
	ConnectorOutcome restartConnector(@PathVariable @Pattern(regexp = TargetProperties.NAME_PATTERN) String target,
			@PathVariable @Pattern(regexp = NAME) String slot) {
		return this.auditor.run("connector.restart", target, slot, Map.of(),
				() -> this.restarts.restart(this.fleet.get(target), slot), SlotAudit::restarted);
	}

	@GetMapping("/{slot}/connector")
	@Operation(summary = "The slot's Kafka Connect connector as Kafka Connect sees it",
			description = "Its status now, its stored offsets (null before Kafka Connect 3.6) and the last handover to a"
					+ " recreated slot: offsets before and after, final state.")
	SlotConnectorView connector(@PathVariable @Pattern(regexp = TargetProperties.NAME_PATTERN) String target,
			@PathVariable @Pattern(regexp = NAME) String slot) {
		return this.reader.connectorStatus(this.fleet.get(target), slot);
	}

}
