package io.slotkeeper.config;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Pattern;
import org.hibernate.validator.constraints.time.DurationMax;
import org.hibernate.validator.constraints.time.DurationMin;

import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * How a slot's consumer is made to read again what a recreate skipped.
 *
 * @param mode {@code none} (default) or {@code debezium-signal}: once the connector runs
 * again, insert one {@code execute-snapshot} row into its signal table
 * @param signalTable the signal table, {@code schema.table}; default: the connector's
 * {@code signal.data.collection}
 * @param collections the tables to snapshot again, {@code schema.table} each; default:
 * the connector's {@code table.include.list} (plain names only, no patterns), the signal
 * table left out
 * @param type {@code incremental} (default: in chunks while streaming goes on) or
 * {@code blocking}
 * @param tables {@code all} (default: every table of {@code collections}) or
 * {@code changed}: only those whose write counters ({@code pg_stat_user_tables}) moved
 * between the slot's last confirmed position and the recreate (PostgreSQL 15 and later;
 * every table before 15)
 * @param recheckAfter how long after the recreate the table counters are read once more
 * (default 60s: PostgreSQL shows a commit in the counters within 60 s): the rows deleted
 * while the slot was lost are counted again and, with {@code tables: changed}, a second
 * signal is sent for skipped tables whose counters moved
 * @param updateColumns with {@code tables: changed}, {@code schema.table.column} of a
 * timestamp column each table sets on every insert and update: its re-snapshot is
 * narrowed to rows whose column is in the lost window (Debezium's
 * {@code additional-conditions})
 * @param windowMargin how much earlier than the last sample before the loss the window of
 * {@code updateColumns} starts (default 5m): longer than the longest write transaction
 * and the clocks' skew
 * @param deletes {@code list} (default: the keys a gap journal saw deleted are listed at
 * {@code …/gap} and in the answer) or {@code signal}: with the re-read, they are also
 * signalled to slot-keeper's Debezium extension, which emits their delete events (install
 * it in the connector's plugin directory first); the journal's truncates and outbox
 * events are signalled with them
 * @param outboxTables {@code schema.table} of each outbox table the connector routes with
 * Debezium's {@code EventRouter}: the gap journal keeps every row inserted in it while
 * the slot's consumer is away (the event, though the row is deleted right after), and
 * with {@code deletes: signal} the extension emits each as the create the connector would
 * have streamed; needs {@code mode: debezium-signal}
 */
@Consistent
public record ResnapshotProperties(@NotNull @DefaultValue("none") Mode mode,
		@Pattern(regexp = TABLE,
				message = "must be schema.table in lower-case letters, digits and underscores") String signalTable,
		List<@Pattern(regexp = TABLE,
				message = "must be schema.table in lower-case letters, digits and underscores") String> collections,
		@NotNull @DefaultValue("incremental") Type type, @NotNull @DefaultValue("all") Tables tables,
		@NotNull @DurationMin(seconds = 1) @DurationMax(hours = 1) @DefaultValue("60s") Duration recheckAfter,
		List<@Pattern(regexp = COLUMN,
				message = "must be schema.table.column in lower-case letters, digits and underscores") String> updateColumns,
		@NotNull @DurationMin(seconds = 0) @DurationMax(days = 1) @DefaultValue("5m") Duration windowMargin,
		@NotNull @DefaultValue("list") Deletes deletes,
		List<@Pattern(regexp = TABLE,
				message = "must be schema.table in lower-case letters, digits and underscores") String> outboxTables)
		implements
			CrossFieldChecked {

	/**
	 * A plain, lower-case {@code schema.table}.
	 */
	public static final String TABLE = "^[a-z_][a-z0-9_]{0,62}\\.[a-z_][a-z0-9_]{0,62}$";

	/**
	 * A plain, lower-case {@code schema.table.column}.
	 */
	public static final String COLUMN = "^[a-z_][a-z0-9_]{0,62}\\.[a-z_][a-z0-9_]{0,62}\\.[a-z_][a-z0-9_]{0,62}$";

	/**
	 * The settings of a slot that asks for the given mode and leaves everything else to
	 * its defaults.
	 * @param mode the mode
	 * @return the settings
	 */
	public static ResnapshotProperties of(Mode mode) {
		return of(mode, Tables.ALL);
	}

	/**
	 * The settings of a slot that asks for the given mode and tables and leaves
	 * everything else to its defaults.
	 * @param mode the mode
	 * @param tables which tables a re-snapshot after a recreate reads ({@code changed}
	 * only with a signal)
	 * @return the settings
	 */
	public static ResnapshotProperties of(Mode mode, Tables tables) {
		return new ResnapshotProperties(mode, null, null, Type.INCREMENTAL,
				(mode == Mode.DEBEZIUM_SIGNAL) ? tables : Tables.ALL, Duration.ofSeconds(60), null,
				Duration.ofMinutes(5), Deletes.LIST, null);
	}

	/**
	 * The outbox tables named.
	 * @return {@code schema.table} each, empty when none
	 */
	public List<String> outboxes() {
		return (this.outboxTables != null) ? this.outboxTables : List.of();
	}

	/**
	 * The update-timestamp column configured for a table.
	 * @param table {@code schema.table}
	 * @return its column's name
	 */
	public Optional<String> updateColumnOf(String table) {
		return (this.updateColumns == null) ? Optional.empty()
				: this.updateColumns.stream()
					.filter((column) -> column.startsWith(table + ".") && column.indexOf('.', table.length() + 1) < 0)
					.map((column) -> column.substring(table.length() + 1))
					.findFirst();
	}

	@Override
	public List<Violation> violations() {
		List<Violation> violations = new ArrayList<>();
		if (this.tables == Tables.CHANGED && this.mode != Mode.DEBEZIUM_SIGNAL) {
			violations.add(new Violation("tables", "changed needs mode debezium-signal, but mode was " + this.mode));
		}
		if (this.updateColumns != null && !this.updateColumns.isEmpty() && this.tables != Tables.CHANGED) {
			violations.add(new Violation("updateColumns",
					"narrow only a re-snapshot of changed tables: set tables" + " to changed"));
		}
		if (this.deletes == Deletes.SIGNAL && this.mode != Mode.DEBEZIUM_SIGNAL) {
			violations.add(new Violation("deletes", "signal needs mode debezium-signal, but mode was " + this.mode));
		}
		if (!outboxes().isEmpty() && this.mode != Mode.DEBEZIUM_SIGNAL) {
			violations.add(new Violation("outboxTables",
					"outbox events are delivered with a re-snapshot: needs mode debezium-signal, but mode was "
							+ this.mode));
		}
		return violations;
	}

	/**
	 * Whether a re-snapshot is asked for after a recreate.
	 */
	public enum Mode {

		/** Nothing is sent. */
		NONE,

		/** One {@code execute-snapshot} row in the connector's signal table. */
		DEBEZIUM_SIGNAL

	}

	/**
	 * What is done with the keys a gap journal saw deleted.
	 */
	public enum Deletes {

		/** Listed at {@code …/gap} and in the answer. */
		LIST,

		/**
		 * Also signalled, with the re-read, to slot-keeper's Debezium extension
		 * ({@code slotkeeper-gap-deletes}).
		 */
		SIGNAL

	}

	/**
	 * Debezium's kinds of ad-hoc snapshot.
	 */
	public enum Type {

		/** In chunks, interleaved with streaming. */
		INCREMENTAL,

		/** Streaming pauses while the tables are read. */
		BLOCKING

	}

	/**
	 * Which of the slot's tables a re-snapshot after a recreate reads.
	 */
	public enum Tables {

		/** Every table. */
		ALL,

		/**
		 * Those written to while the slot was lost, as the server's table counters tell.
		 */
		CHANGED

	}

}
