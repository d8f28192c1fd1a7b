package io.slotkeeper.config;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import jakarta.validation.constraints.DecimalMax;
import jakarta.validation.constraints.DecimalMin;
import jakarta.validation.constraints.NotNull;
import org.hibernate.validator.constraints.time.DurationMax;
import org.hibernate.validator.constraints.time.DurationMin;

import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * Retry delays after a failed heartbeat: exponential from {@code min} to {@code max},
 * each delay varied by up to {@code jitter} of itself and kept within {@code [min, max]}.
 *
 * @param min first retry delay after a failure
 * @param max longest retry delay; a target that comes back is beating again within this
 * delay
 * @param jitter fraction (0 to 1) by which each delay is randomly varied, so that many
 * instances or targets do not retry in lockstep
 */
@Consistent
public record BackoffProperties(
		@NotNull @DurationMin(millis = 1) @DurationMax(hours = 1) @DefaultValue("1s") Duration min,
		@NotNull @DurationMin(millis = 1) @DurationMax(hours = 1) @DefaultValue("60s") Duration max,
		@DecimalMin("0.0") @DecimalMax("1.0") @DefaultValue("0.25") double jitter) implements CrossFieldChecked {

	@Override
	public List<Violation> violations() {
		List<Violation> violations = new ArrayList<>();
		if (this.min != null && this.max != null && this.min.compareTo(this.max) > 0) {
			violations.add(new Violation("min", "must not be greater than max (" + this.max + ")"));
		}
		return violations;
	}

}
