package io.slotkeeper.config;

import java.time.Duration;

import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Pattern;
import org.hibernate.validator.constraints.time.DurationMax;
import org.hibernate.validator.constraints.time.DurationMin;

import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * The Kafka Connect connector that consumes a slot, made to resume after the slot is recreated.
 *
 * @param url base URL of the Kafka Connect REST API, for example {@code http://connect:8083}
 * @param name the connector's name in Kafka Connect
 * @param username basic-auth user, when the REST API asks for one
 * @param password basic-auth password; never logged or shown
 * @param timeout longest time one call to Kafka Connect may take, connecting included
 * @param offsets what to do with the connector's offsets after a recreate: {@code align} (default: stop, set them to
 * the new slot's position, resume), {@code reset} (stop, delete them, resume) or {@code leave} (restart only)
 * @param runningTimeout how long to wait, after a recreate, for the connector and its tasks to be RUNNING again
 */
public record ConnectorProperties(
		@NotBlank @Pattern(regexp = "^https?://[^\\s?#]+$",
				message = "must be an http or https URL without query") String url,
		@NotBlank @Pattern(regexp = "^[A-Za-z0-9._-]{1,249}$",
				message = "must be letters, digits, dots, dashes and underscores") String name,
		String username,
		Secret password,
		@NotNull @DurationMin(millis = 1) @DurationMax(minutes = 5) @DefaultValue("10s") Duration timeout,
		@NotNull @DefaultValue("align") ConnectorOffsets offsets,
		@NotNull @DurationMin(millis = 1) @DurationMax(minutes = 10) @DefaultValue("60s") Duration runningTimeout) {

}
