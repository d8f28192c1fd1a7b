package io.slotkeeper.settings;

import java.sql.Array;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * What a server is configured to do to its slots, as {@code pg_settings} shows it, with
 * what it uses of them: read with each poll (two cheap statements on the poll's session).
 * A setting the server's version lacks is absent.
 *
 * @param settings the audited settings by name, each as the server shows it
 * ({@code setting} and {@code unit})
 * @param readAt when they were read, by the server's clock: the polls of one server share
 * a reading, and the WAL rate must pair each position with the time it was read, not with
 * the time a poll was handed it
 * @param walPositionBytes where the server's WAL was then, in bytes from its start
 * @param slotsInUse how many replication slots exist
 * @param walSendersInUse how many WAL senders are running
 * @param physicalSlots the names of the server's physical slots that are not invalidated
 * @param gapCopies how many of the replication slots are copies slot-keeper's gap
 * journals read ({@code slotkeeper_gap_…})
 */
public record ServerSettings(Map<String, Setting> settings, Instant readAt, long walPositionBytes, int slotsInUse,
		int walSendersInUse, List<String> physicalSlots, int gapCopies) {

	/**
	 * The settings the audit reads: those the server's version has of them.
	 */
	static final List<String> AUDITED = List.of("wal_level", "effective_wal_level", "max_slot_wal_keep_size",
			"idle_replication_slot_timeout", "wal_sender_timeout", "max_replication_slots", "max_wal_senders",
			"synchronized_standby_slots");

	// pg_settings and pg_replication_slots are readable by every role;
	// pg_stat_replication's rows are counted for any.
	private static final String SETTINGS = "SELECT name, setting, unit FROM pg_catalog.pg_settings WHERE name IN ("
			+ String.join(", ", AUDITED.stream().map((name) -> "'" + name + "'").toList()) + ")";

	private static final String USE = "SELECT (CASE WHEN pg_catalog.pg_is_in_recovery()"
			+ " THEN pg_catalog.pg_last_wal_replay_lsn() ELSE pg_catalog.pg_current_wal_lsn() END) - '0/0'::pg_lsn,"
			+ " (SELECT count(*) FROM pg_catalog.pg_replication_slots),"
			+ " (SELECT count(*) FROM pg_catalog.pg_stat_replication),"
			+ " ARRAY(SELECT slot_name::text FROM pg_catalog.pg_replication_slots p WHERE slot_type = 'physical'"
			+ " AND wal_status IS DISTINCT FROM 'lost' AND (pg_catalog.to_jsonb(p) ->> 'invalidation_reason') IS NULL),"
			+ " pg_catalog.clock_timestamp(),"
			+ " (SELECT count(*) FROM pg_catalog.pg_replication_slots WHERE slot_name LIKE 'slotkeeper\\_gap\\_%')";

	/**
	 * Reads the settings and their use.
	 * @param connection a session on the server
	 * @return what was read
	 * @throws SQLException when the server refuses
	 */
	public static ServerSettings read(Connection connection) throws SQLException {
		Map<String, Setting> settings = new TreeMap<>();
		try (Statement statement = connection.createStatement()) {
			try (ResultSet row = statement.executeQuery(SETTINGS)) {
				while (row.next()) {
					settings.put(row.getString(1), new Setting(row.getString(2), row.getString(3)));
				}
			}
			try (ResultSet row = statement.executeQuery(USE)) {
				row.next();
				Array physical = row.getArray(4);
				return new ServerSettings(settings, row.getObject(5, OffsetDateTime.class).toInstant(),
						row.getBigDecimal(1).longValue(), row.getInt(2), row.getInt(3),
						List.of((String[]) physical.getArray()), row.getInt(6));
			}
		}
	}

	/**
	 * A setting by name.
	 * @param name the setting's name
	 * @return it, empty when the server's version lacks it
	 */
	public Optional<Setting> get(String name) {
		return Optional.ofNullable(this.settings.get(name));
	}

	/**
	 * One setting as {@code pg_settings} shows it.
	 *
	 * @param setting its value in its unit, as text
	 * @param unit its unit ({@code MB}, {@code 8kB}, {@code ms}, {@code s}…),
	 * {@code null} when it has none
	 */
	public record Setting(String setting, String unit) {

		/**
		 * The value as a number in its unit.
		 * @return the number, or empty when the value is not one
		 */
		public Optional<Long> number() {
			try {
				return Optional.of(Long.parseLong(this.setting));
			}
			catch (NumberFormatException ex) {
				return Optional.empty();
			}
		}

		/**
		 * A memory setting in bytes.
		 * @return the bytes, empty when negative (unlimited) or not a memory setting
		 */
		public Optional<Long> bytes() {
			return number().filter((value) -> value >= 0).flatMap((value) -> unitBytes().map((unit) -> value * unit));
		}

		/**
		 * A time setting as a duration.
		 * @return the duration, empty when negative or not a time setting
		 */
		public Optional<Duration> duration() {
			return number().filter((value) -> value >= 0).flatMap((value) -> switch (String.valueOf(this.unit)) {
				case "ms" -> Optional.of(Duration.ofMillis(value));
				case "s" -> Optional.of(Duration.ofSeconds(value));
				case "min" -> Optional.of(Duration.ofMinutes(value));
				default -> Optional.empty();
			});
		}

		/**
		 * The value with its unit: {@code 64MB}, {@code 60000ms}, {@code logical};
		 * {@code -1} (unlimited) bare.
		 * @return the value and its unit
		 */
		public String shown() {
			boolean unitless = this.unit == null || number().filter((value) -> value < 0).isPresent();
			return unitless ? this.setting : this.setting + this.unit;
		}

		// Memory units may carry a multiplier: 8kB for settings in blocks, 16MB for
		// settings in WAL segments.
		private Optional<Long> unitBytes() {
			if (this.unit == null) {
				return Optional.empty();
			}
			String digits = this.unit.replaceAll("[^0-9]", "");
			long multiplier = digits.isEmpty() ? 1 : Long.parseLong(digits);
			String suffix = this.unit.replaceAll("[0-9]", "");
			long base = switch (suffix) {
				case "B" -> 1L;
				case "kB" -> 1024L;
				case "MB" -> 1024L * 1024;
				case "GB" -> 1024L * 1024 * 1024;
				case "TB" -> 1024L * 1024 * 1024 * 1024;
				default -> 0L;
			};
			return (base == 0) ? Optional.empty() : Optional.of(multiplier * base);
		}

	}

}
