package io.slotkeeper.config;

import jakarta.validation.Valid;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.Pattern;

/**
 * What slot-keeper knows about one slot of a target beyond what the server says.
 *
 * @param name the slot's name
 * @param connector the Kafka Connect connector consuming it, restarted after a recreate; none when absent
 */
public record SlotPolicyProperties(
		@NotBlank @Pattern(regexp = "^[a-z0-9_]{1,63}$",
				message = "must be 1 to 63 lower-case letters, digits and underscores") String name,
		@Valid ConnectorProperties connector) {

}
