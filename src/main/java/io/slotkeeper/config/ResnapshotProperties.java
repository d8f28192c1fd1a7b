package io.slotkeeper.config;

import java.util.List;

import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Pattern;

import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * How a slot's consumer is made to read again what a recreate skipped.
 *
 * @param mode {@code none} (default) or {@code debezium-signal}: once the connector runs again, insert one
 * {@code execute-snapshot} row into its signal table
 * @param signalTable the signal table, {@code schema.table}; default: the connector's {@code signal.data.collection}
 * @param collections the tables to snapshot again, {@code schema.table} each; default: the connector's
 * {@code table.include.list} (plain names only, no patterns), the signal table left out
 * @param type {@code incremental} (default: in chunks while streaming goes on) or {@code blocking}
 */
public record ResnapshotProperties(@NotNull @DefaultValue("none") Mode mode,
		@Pattern(regexp = TABLE, message = "must be schema.table in lower-case letters, digits and underscores")
		String signalTable,
		List<@Pattern(regexp = TABLE, message = "must be schema.table in lower-case letters, digits and underscores")
		String> collections,
		@NotNull @DefaultValue("incremental") Type type) {

	/**
	 * A plain, lower-case {@code schema.table}.
	 */
	public static final String TABLE = "^[a-z_][a-z0-9_]{0,62}\\.[a-z_][a-z0-9_]{0,62}$";

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
	 * Debezium's kinds of ad-hoc snapshot.
	 */
	public enum Type {

		/** In chunks, interleaved with streaming. */
		INCREMENTAL,

		/** Streaming pauses while the tables are read. */
		BLOCKING

	}

}
