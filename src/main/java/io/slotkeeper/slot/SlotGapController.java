package io.slotkeeper.slot;

import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.Parameter;
import io.swagger.v3.oas.annotations.tags.Tag;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.Pattern;

import org.springframework.security.core.Authentication;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

import io.slotkeeper.config.TargetProperties;
import io.slotkeeper.fleet.Fleet;
import io.slotkeeper.fleet.Target;
import io.slotkeeper.gap.GapJournals;
import io.slotkeeper.gap.GapReading;
import io.slotkeeper.resnapshot.GapDelivery;
import io.slotkeeper.slot.changing.SlotService;

/**
 * What a slot's consumer misses, as its gap journal read it: the journal kept while the
 * consumer is away and the last gap a recreate closed, with the deleted keys for an
 * operator.
 */
@RestController
@RequestMapping("/api/v1/targets/{target}/slots")
@Tag(name = "slots")
class SlotGapController {

	private static final String KEYS = "How many deleted keys and events to list per table (operators only; a viewer gets"
			+ " counts). Keys are the database's values: they are answered here and never logged.";

	private final Fleet fleet;

	private final GapJournals journals;

	private final SlotService slots;

	SlotGapController(Fleet fleet, GapJournals journals, SlotService slots) {
		this.fleet = fleet;
		this.journals = journals;
		this.slots = slots;
	}

	@GetMapping("/{slot}/gap")
	@Operation(summary = "What the slot's consumer misses: its gap journal and the last gap",
			description = "journal: what changed since the consumer went away, as far as the copy of its slot has been"
					+ " read (null when none is kept: notJournaled says why when one was wanted). last: the gap the"
					+ " last recreate closed in this instance, exact or why not. Per table inserted, updated and"
					+ " deleted keys, truncates, outbox events; the deleted keys and the events themselves for an"
					+ " operator. delivery: what became of the last gap's signals to slot-keeper's Debezium"
					+ " extension, as its acknowledgements tell. Kept in the memory of the instance that owns the"
					+ " target.")
	SlotGap gap(@PathVariable @Pattern(regexp = TargetProperties.NAME_PATTERN) String target,
			@PathVariable @Pattern(regexp = SlotController.NAME) String slot,
			@Parameter(description = KEYS) @RequestParam(defaultValue = "1000") @Min(0) @Max(100_000) int keys,
			Authentication caller) {
		Target found = this.fleet.get(target);
		boolean operator = caller.getAuthorities()
			.stream()
			.anyMatch((authority) -> "ROLE_OPERATOR".equals(authority.getAuthority()));
		int listed = operator ? keys : 0;
		GapReading journal = this.journals.journaling(found.name(), slot, listed).orElse(null);
		String why = (journal != null) ? null : this.journals.notJournaledBecause(found.name(), slot)
			.orElse(found.ownership().owned() ? null : "another instance owns the target and keeps its journals");
		return new SlotGap(found.name(), slot, journal, why,
				this.journals.last(found.name(), slot, listed).orElse(null),
				operator ? "at most " + keys + " per table" : "counts only: keys are listed for operators",
				this.slots.followUps().resnapshots().delivery(found.name(), slot).orElse(null));
	}

	/**
	 * A slot's gap.
	 *
	 * @param target the target
	 * @param slot the slot
	 * @param journal the journal kept now, {@code null} when none
	 * @param notJournaled why no journal is kept though one was wanted, {@code null} when
	 * none was or one is
	 * @param last the last gap a recreate closed here, {@code null} when none
	 * @param deletedKeys how the deleted keys are listed for this caller
	 * @param delivery what became of the last gap's signals to the Debezium extension,
	 * {@code null} when this instance sent none
	 */
	record SlotGap(String target, String slot, GapReading journal, String notJournaled, GapReading last,
			String deletedKeys, GapDelivery delivery) {
	}

}
