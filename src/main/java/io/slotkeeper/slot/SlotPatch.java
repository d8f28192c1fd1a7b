package io.slotkeeper.slot;

import io.swagger.v3.oas.annotations.media.Schema;
import jakarta.validation.constraints.NotNull;

/**
 * What to change on an existing slot.
 *
 * @param failover whether the slot is synchronized to standbys that synchronize slots
 * (PostgreSQL 17+)
 */
public record SlotPatch(@Schema(example = "true") @NotNull Boolean failover) {

}
