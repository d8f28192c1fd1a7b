package io.slotkeeper.heartbeat;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;

import io.slotkeeper.config.HeartbeatProperties;
import io.slotkeeper.sessions.OwnTables;
import io.slotkeeper.sessions.SqlIdentifiers;

/**
 * Writes one heartbeat into a target in the configured mode and tells the LSN it wrote.
 */
interface HeartbeatWriter {

	/**
	 * Prepares a new session, for example by creating the heartbeat table.
	 * @param connection the session
	 * @throws SQLException when the server refuses
	 */
	default void prepare(Connection connection) throws SQLException {
	}

	/**
	 * Writes one heartbeat.
	 * @param connection the session, in auto-commit mode
	 * @return the LSN of the record written, as PostgreSQL prints it
	 * @throws SQLException when the server refuses or does not answer in time
	 */
	String write(Connection connection) throws SQLException;

	/**
	 * The writer for a target's heartbeat settings.
	 * @param properties the settings
	 * @return the writer
	 */
	static HeartbeatWriter of(HeartbeatProperties properties) {
		return switch (properties.mode()) {
			case MESSAGE -> new MessageWriter(properties.transactional(), properties.prefix(), properties.content());
			case TABLE -> new TableWriter(properties.table(), properties.createTable());
			case QUERY -> new QueryWriter(properties.query());
		};
	}

	private static String queryForText(PreparedStatement statement) throws SQLException {
		try (ResultSet result = statement.executeQuery()) {
			result.next();
			return result.getString(1);
		}
	}

	/**
	 * {@code pg_logical_emit_message} with bound parameters; the function returns the
	 * message's LSN.
	 */
	record MessageWriter(boolean transactional, String prefix, String content) implements HeartbeatWriter {

		@Override
		public String write(Connection connection) throws SQLException {
			try (PreparedStatement statement = connection
				.prepareStatement("SELECT pg_catalog.pg_logical_emit_message(?, ?, ?::text)::text")) {
				statement.setBoolean(1, this.transactional);
				statement.setString(2, this.prefix);
				statement.setString(3, this.content);
				return queryForText(statement);
			}
		}

	}

	/**
	 * An upsert of row 1 of the heartbeat table, so that consumers without logical
	 * messages see a change when the table is in their publication.
	 */
	record TableWriter(String table, boolean createTable) implements HeartbeatWriter {

		// A table slot-keeper creates is checked at every new session: a table another
		// role put there first, or a
		// trigger on it, would run that role's code as slot-keeper.
		@Override
		public void prepare(Connection connection) throws SQLException {
			if (this.createTable) {
				OwnTables.create(connection, this.table, "id integer PRIMARY KEY, beat_at timestamptz NOT NULL", false);
			}
		}

		@Override
		public String write(Connection connection) throws SQLException {
			try (PreparedStatement statement = connection.prepareStatement("INSERT INTO "
					+ SqlIdentifiers.quoteQualified(this.table)
					+ " (id, beat_at) VALUES (1, pg_catalog.now()) ON CONFLICT (id) DO UPDATE SET beat_at = EXCLUDED.beat_at"
					+ " RETURNING pg_catalog.pg_current_wal_lsn()::text")) {
				return queryForText(statement);
			}
		}

	}

	/**
	 * The operator's SQL as is, then the current WAL position.
	 */
	record QueryWriter(String query) implements HeartbeatWriter {

		@Override
		public String write(Connection connection) throws SQLException {
			try (Statement statement = connection.createStatement()) {
				statement.execute(this.query);
			}
			try (PreparedStatement statement = connection
				.prepareStatement("SELECT pg_catalog.pg_current_wal_lsn()::text")) {
				return queryForText(statement);
			}
		}

	}

}
