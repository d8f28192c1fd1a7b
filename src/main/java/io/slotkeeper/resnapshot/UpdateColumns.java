package io.slotkeeper.resnapshot;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import io.slotkeeper.config.ResnapshotProperties;

/**
 * The update columns ({@code resnapshot.update-columns}) of a slot's tables as the server
 * has them, read when a heal chooses its tables: a table is narrowed to the lost window
 * only by a {@code timestamp with time zone} column, whose values are instants. A column
 * that does not exist, or of another type, reads the table whole, saying why: a
 * {@code timestamp without time zone} holds the wall time of a zone its writers chose and
 * the server does not know, so a window placed on it would miss the rows of writers west
 * of it.
 */
final class UpdateColumns {

	static final String INSTANTS = "timestamp with time zone";

	private UpdateColumns() {
	}

	/**
	 * The types of the tables' update columns.
	 * @param connection a session in the tables' database
	 * @param settings the slot's re-snapshot settings
	 * @param tables the slot's tables, {@code schema.table}
	 * @return the type of each table's update column by table, {@code null} for a column
	 * that does not exist
	 * @throws SQLException when the catalog cannot be read
	 */
	static Map<String, String> types(Connection connection, ResnapshotProperties settings, List<String> tables)
			throws SQLException {
		Map<String, String> types = new LinkedHashMap<>();
		try (PreparedStatement read = connection.prepareStatement("SELECT pg_catalog.format_type(a.atttypid, NULL)"
				+ " FROM pg_catalog.pg_attribute a WHERE a.attrelid = pg_catalog.to_regclass(?) AND a.attname = ?"
				+ " AND a.attnum > 0 AND NOT a.attisdropped")) {
			for (String table : tables) {
				Optional<String> column = settings.updateColumnOf(table);
				if (column.isEmpty()) {
					continue;
				}
				read.setString(1, table);
				read.setString(2, column.get());
				try (ResultSet row = read.executeQuery()) {
					types.put(table, row.next() ? row.getString(1) : null);
				}
			}
		}
		return types;
	}

	/**
	 * Why a table with an update column is read whole, {@code null} when it can be
	 * narrowed.
	 * @param column the column
	 * @param type its type, {@code null} when it does not exist
	 * @return the reason
	 */
	static String readWhole(String column, String type) {
		if (type == null) {
			return "its update column " + column + " does not exist";
		}
		if (INSTANTS.equals(type)) {
			return null;
		}
		if ("timestamp without time zone".equals(type)) {
			return "its update column " + column + " is timestamp without time zone, whose values are wall times of a"
					+ " zone the server does not know (use timestamptz to narrow it)";
		}
		return "its update column " + column + " is " + type + ", not timestamp with time zone";
	}

	/**
	 * Debezium's filter of a table's reads to the lost window.
	 * @param column the column, a timestamp with time zone
	 * @param windowStart where the window starts
	 * @return the filter
	 */
	static String condition(String column, Instant windowStart) {
		return "\"" + column.replace("\"", "\"\"") + "\" >= '" + windowStart + "'";
	}

}
