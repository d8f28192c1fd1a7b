package io.slotkeeper.config;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import jakarta.validation.constraints.NotNull;
import org.hibernate.validator.constraints.time.DurationMax;
import org.hibernate.validator.constraints.time.DurationMin;

import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.util.unit.DataSize;

/**
 * What slot-keeper may do for a slot while its consumer is gone: opt-in, off unless set.
 * When the slot's outage budget (the time left before the server invalidates it, at the
 * WAL rate measured over the last hour) falls below {@code whenBudgetBelow}, the target's
 * owner raises the server's {@code max_slot_wal_keep_size} to {@code raiseKeepSizeTo}
 * with {@code ALTER SYSTEM} and {@code pg_reload_conf()}, where its role may, and puts
 * the value back once every slot it raised for has its consumer again. Never beyond the
 * cap; never over an unlimited setting; refused, saying why, where the role may not.
 *
 * @param raiseKeepSizeTo the most {@code max_slot_wal_keep_size} is raised to, for
 * example {@code 20GB}: at least 1MB, in whole megabytes (the setting's unit)
 * @param whenBudgetBelow raise once the slot's outage budget is below this (default 1h)
 */
@Consistent
public record OnOutageProperties(@NotNull DataSize raiseKeepSizeTo,
		@NotNull @DurationMin(seconds = 1) @DurationMax(days = 7) @DefaultValue("1h") Duration whenBudgetBelow)
		implements
			CrossFieldChecked {

	// max_slot_wal_keep_size is an int of megabytes.
	private static final long MOST_MEGABYTES = Integer.MAX_VALUE;

	/**
	 * The cap in the setting's unit.
	 * @return megabytes
	 */
	public long raiseKeepSizeToMegabytes() {
		return this.raiseKeepSizeTo.toMegabytes();
	}

	@Override
	public List<Violation> violations() {
		List<Violation> violations = new ArrayList<>();
		if (this.raiseKeepSizeTo != null
				&& (this.raiseKeepSizeTo.toMegabytes() < 1 || this.raiseKeepSizeTo.toMegabytes() > MOST_MEGABYTES
						|| this.raiseKeepSizeTo.toBytes() % DataSize.ofMegabytes(1).toBytes() != 0)) {
			violations.add(new Violation("raiseKeepSizeTo", "must be whole megabytes from 1MB to " + MOST_MEGABYTES
					+ "MB (max_slot_wal_keep_size's range), but was " + this.raiseKeepSizeTo));
		}
		return violations;
	}

}
