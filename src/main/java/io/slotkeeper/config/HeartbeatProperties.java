package io.slotkeeper.config;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

import jakarta.validation.Valid;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Size;
import org.hibernate.validator.constraints.time.DurationMax;
import org.hibernate.validator.constraints.time.DurationMin;

import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * How and how often slot-keeper writes a heartbeat into one target.
 *
 * @param enabled whether heartbeats are scheduled for this target; the target stays
 * listed and reachable through the API when off
 * @param interval time between two heartbeats of this target (at most 1 hour)
 * @param mode how the heartbeat writes its WAL record: {@code message}, {@code table} or
 * {@code query}
 * @param transactional message mode: emit the logical message inside a transaction
 * (decoded as BEGIN, MESSAGE, COMMIT) rather than on its own
 * @param prefix message mode: the logical message's prefix, which consumers use to
 * recognise heartbeats
 * @param content message mode: the logical message's content; it is visible to every
 * consumer, so it must hold nothing secret
 * @param table table mode: the heartbeat table, {@code table} or {@code schema.table} in
 * lower case; it is quoted
 * @param createTable table mode: create the table
 * ({@code id int primary key, beat_at timestamptz}) when missing
 * @param query query mode: the operator's SQL, run as is; trusted configuration, required
 * in this mode
 * @param backoff retry delays after a failure
 * @param unhealthyAfter consecutive failures after which the target's health is DOWN
 * @param ackIntervals intervals within which a consumer's confirmed position must pass a
 * heartbeat for the slot to count as acknowledging heartbeats
 * @param standbySnapshot {@code auto}, {@code on} or {@code off}: order each heartbeat
 * with a standby snapshot ({@code pg_log_standby_snapshot()}, PostgreSQL 16+): once the
 * consumers confirmed the beat's record, a snapshot and a second record, so that an idle
 * slot keeps about one interval of WAL instead of interval + 15 s, and standby slots can
 * be created and advance promptly; needs superuser or an explicit GRANT ({@code auto}
 * uses it where allowed)
 */
@Consistent
public record HeartbeatProperties(@DefaultValue("true") boolean enabled,
		@NotNull @DurationMin(millis = 1) @DurationMax(hours = 1) @DefaultValue("10s") Duration interval,
		@NotNull @DefaultValue("message") HeartbeatMode mode, @DefaultValue("true") boolean transactional,
		@NotBlank @Size(max = 128) @DefaultValue("slotkeeper_heartbeat") String prefix,
		@NotNull @Size(max = 1024) @DefaultValue("") String content,
		@NotBlank @DefaultValue("public.slotkeeper_heartbeat") String table, @DefaultValue("false") boolean createTable,
		@NotNull @DefaultValue("") String query, @NotNull @Valid @DefaultValue BackoffProperties backoff,
		@Min(1) @DefaultValue("3") int unhealthyAfter, @Min(1) @DefaultValue("3") int ackIntervals,
		@NotNull @DefaultValue("auto") StandbySnapshotMode standbySnapshot) implements CrossFieldChecked {

	/**
	 * A table name: one or two lower-case SQL identifiers, quoted when used.
	 */
	public static final Pattern TABLE_NAME = Pattern.compile("^[a-z_][a-z0-9_]{0,62}(\\.[a-z_][a-z0-9_]{0,62})?$");

	/**
	 * The rules derived from the interval.
	 * @return the cadence
	 */
	public HeartbeatCadence cadence() {
		return new HeartbeatCadence(this.interval);
	}

	@Override
	public List<Violation> violations() {
		List<Violation> violations = new ArrayList<>();
		if (this.mode == HeartbeatMode.QUERY && (this.query == null || this.query.isBlank())) {
			violations.add(new Violation("query", "must be set when mode is query"));
		}
		if (this.table != null && !TABLE_NAME.matcher(this.table).matches()) {
			violations.add(new Violation("table",
					"must be 'table' or 'schema.table' in lower-case letters, digits and underscores, but was '"
							+ this.table + "'"));
		}
		return violations;
	}

}
