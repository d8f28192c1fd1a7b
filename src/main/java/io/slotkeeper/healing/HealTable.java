package io.slotkeeper.healing;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Instant;

import io.slotkeeper.sessions.OwnTables;

/**
 * The heal ledger's table in a target's database ({@value #TABLE}, in slot-keeper's own
 * schema): one row per heal attempt, the last hour's counted against the budget, rows
 * older than a day removed with each new one.
 */
final class HealTable {

	static final String TABLE = "slotkeeper.heals";

	private static final String COLUMNS = "id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY, slot text NOT NULL,"
			+ " at timestamptz NOT NULL, succeeded boolean NOT NULL";

	private HealTable() {
	}

	static void create(Connection connection) throws SQLException {
		OwnTables.create(connection, TABLE, COLUMNS, true);
	}

	static int count(Connection connection, String slot, Instant now) throws SQLException {
		try (PreparedStatement statement = connection
			.prepareStatement("SELECT pg_catalog.count(*) FROM " + TABLE + " WHERE slot = ? AND at > ?")) {
			statement.setString(1, slot);
			statement.setTimestamp(2, Timestamp.from(now.minus(RecreationBudget.WINDOW)));
			try (ResultSet result = statement.executeQuery()) {
				result.next();
				return result.getInt(1);
			}
		}
	}

	// Rows older than a day count for nothing: they go with each new one.
	static Void insert(Connection connection, String slot, Instant at, boolean succeeded) throws SQLException {
		try (PreparedStatement delete = connection.prepareStatement("DELETE FROM " + TABLE + " WHERE at < ?");
				PreparedStatement insert = connection
					.prepareStatement("INSERT INTO " + TABLE + " (slot, at, succeeded) VALUES (?, ?, ?)")) {
			delete.setTimestamp(1, Timestamp.from(at.minus(RecreationBudget.WINDOW.multipliedBy(24))));
			delete.execute();
			insert.setString(1, slot);
			insert.setTimestamp(2, Timestamp.from(at));
			insert.setBoolean(3, succeeded);
			insert.execute();
		}
		return null;
	}

}
