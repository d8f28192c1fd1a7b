package io.slotkeeper.slot;

import io.swagger.v3.oas.annotations.media.Schema;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Pattern;

import io.slotkeeper.replication.SlotProblems;
import io.slotkeeper.slot.changing.SlotSpec;

/**
 * A slot to create.
 *
 * @param name the slot's name
 * @param plugin the output plugin of a logical slot; default {@code pgoutput}; none for a
 * physical slot
 * @param type {@code logical} (default) or {@code physical}
 * @param twoPhase decode prepared transactions (logical, PG 14+)
 * @param failover synchronize to standbys (logical, PG 17+)
 */
public record CreateSlotRequest(
		@Schema(example = "debezium") @NotNull @Pattern(regexp = SlotController.NAME) String name,
		@Schema(example = "pgoutput") @Pattern(regexp = SlotController.NAME) String plugin, @Schema(allowableValues = {
				"logical", "physical" }) @Pattern(regexp = "^(logical|physical)$") String type,
		Boolean twoPhase, Boolean failover){

	SlotSpec toSpec(String target) {
		boolean logical = this.type == null || this.type.equals("logical");
		if (!logical
				&& (this.plugin != null || Boolean.TRUE.equals(this.twoPhase) || Boolean.TRUE.equals(this.failover))) {
			throw SlotProblems.badRequest(target, this.name, "A physical slot takes no plugin, twoPhase or failover.");
		}
		return new SlotSpec(this.name, logical, logical ? ((this.plugin != null) ? this.plugin : "pgoutput") : null,
				Boolean.TRUE.equals(this.twoPhase), Boolean.TRUE.equals(this.failover));
	}

}
