package io.slotkeeper.outage;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import io.slotkeeper.fleet.Target;
import io.slotkeeper.sessions.OwnTables;

/**
 * Where a server's WAL-limit raise is kept: table {@code slotkeeper.keep_size_raises} in
 * the database of the target the guard acts through, beside the heal attempts, so that it
 * outlives the instance that made it. Where that table cannot be written (no
 * {@code CREATE} on the database, a table another role made) the raise is kept in this
 * instance's memory, and {@link #durable} says so.
 */
final class KeepSizeRecords {

	static final String TABLE = "slotkeeper.keep_size_raises";

	// The table's columns (package-private for the tests that write a record as another
	// instance would have).
	static final String COLUMNS = "server text PRIMARY KEY, from_mb bigint NOT NULL, restore text NOT NULL,"
			+ " to_mb bigint NOT NULL, slots text NOT NULL, raised_at timestamptz NOT NULL,"
			+ " server_at timestamptz NOT NULL, yielded_to_mb bigint";

	private final Map<String, KeepSizeRaise> memory = new ConcurrentHashMap<>();

	private final Map<String, String> notDurable = new ConcurrentHashMap<>();

	private static final int LOOK_AROUND_MINUTES = 1;

	private final Map<String, LookedAround> leadsLookedAround = new ConcurrentHashMap<>();

	private final Clock clock;

	/**
	 * @param clock when the other targets' databases were last looked in
	 */
	KeepSizeRecords(Clock clock) {
		this.clock = clock;
	}

	/**
	 * The raise recorded for a server in its lead target's database. A server whose lead
	 * changed (a target that opted in later, or one that left) has it in the database of
	 * the lead before, and so has one raised while a switchover split two instances' view
	 * of the server (each acting for the targets that answered from the new primary,
	 * through the first of them): it moves to the lead's database, looked for in the
	 * other targets' when the lead or the server's value changed since the last look, and
	 * once every {@value #LOOK_AROUND_MINUTES} minute besides.
	 * @param connection a session in the lead target's database
	 * @param server the server, with a lead
	 * @param current the server's {@code max_slot_wal_keep_size} in megabytes as the poll
	 * read it
	 * @return the raise, {@code null} when none stands
	 * @throws SQLException when a table cannot be read
	 */
	KeepSizeRaise find(Connection connection, KeepSizeServer server, long current) throws SQLException {
		KeepSizeRaise raise = read(connection, server.key());
		if (raise != null) {
			return raise;
		}
		Instant now = this.clock.instant();
		LookedAround last = this.leadsLookedAround.get(server.key());
		if (last != null && last.lead().equals(server.lead().name()) && last.current() == current
				&& now.isBefore(last.at().plus(Duration.ofMinutes(LOOK_AROUND_MINUTES)))) {
			return null;
		}
		this.leadsLookedAround.put(server.key(), new LookedAround(server.lead().name(), current, now));
		for (Target other : server.targets()) {
			if (other == server.lead() || !KeepSizeServer.optedIn(other)) {
				continue;
			}
			try (Connection elsewhere = other.primary().connection()) {
				KeepSizeRaise found = read(elsewhere, server.key());
				if (found != null) {
					write(connection, found);
					delete(elsewhere, server.key());
					return found;
				}
			}
			catch (SQLException | RuntimeException ex) {
				this.leadsLookedAround.remove(server.key());
				throw ex;
			}
		}
		return null;
	}

	/**
	 * The raise recorded for a server in this database, or in memory.
	 * @param connection a session in the database
	 * @param server the server's key
	 * @return the raise, {@code null} when none stands
	 * @throws SQLException when the table cannot be read
	 */
	KeepSizeRaise read(Connection connection, String server) throws SQLException {
		KeepSizeRaise kept = this.memory.get(server);
		if (kept != null || !trusted(connection, server)) {
			return kept;
		}
		try (PreparedStatement select = connection.prepareStatement("SELECT from_mb, restore, to_mb, slots, raised_at,"
				+ " server_at, yielded_to_mb FROM " + TABLE + " WHERE server = ?")) {
			select.setString(1, server);
			try (ResultSet row = select.executeQuery()) {
				if (!row.next()) {
					return null;
				}
				return new KeepSizeRaise(server, row.getLong(1), row.getString(2), row.getLong(3),
						List.copyOf(Arrays.asList(row.getString(4).split(","))), row.getTimestamp(5).toInstant(),
						row.getTimestamp(6).toInstant(), (Long) row.getObject(7));
			}
		}
	}

	// A table another role made in slot-keeper's place is never read: the raise is then
	// this instance's to remember.
	boolean trusted(Connection connection, String server) throws SQLException {
		try {
			return OwnTables.exists(connection, TABLE, true);
		}
		catch (SQLException ex) {
			if (!OwnTables.REFUSED.equals(ex.getSQLState())) {
				throw ex;
			}
			this.notDurable.put(server, ex.getMessage());
			return false;
		}
	}

	/**
	 * Records a raise, in the database when it can be written there, else in memory.
	 * @param connection a session in the database
	 * @param raise the raise
	 */
	void write(Connection connection, KeepSizeRaise raise) {
		try {
			OwnTables.create(connection, TABLE, COLUMNS, true);
			try (PreparedStatement upsert = connection.prepareStatement("INSERT INTO " + TABLE + " (server, from_mb,"
					+ " restore, to_mb, slots, raised_at, server_at, yielded_to_mb) VALUES (?, ?, ?, ?, ?, ?, ?, ?)"
					+ " ON CONFLICT (server) DO UPDATE SET from_mb = EXCLUDED.from_mb, restore = EXCLUDED.restore,"
					+ " to_mb = EXCLUDED.to_mb, slots = EXCLUDED.slots, raised_at = EXCLUDED.raised_at,"
					+ " server_at = EXCLUDED.server_at, yielded_to_mb = EXCLUDED.yielded_to_mb")) {
				upsert.setString(1, raise.server());
				upsert.setLong(2, raise.fromMegabytes());
				upsert.setString(3, raise.restore());
				upsert.setLong(4, raise.toMegabytes());
				upsert.setString(5, String.join(",", raise.slots()));
				upsert.setTimestamp(6, Timestamp.from(raise.at()));
				upsert.setTimestamp(7, Timestamp.from(raise.serverAt()));
				upsert.setObject(8, raise.yieldedTo());
				upsert.executeUpdate();
			}
			this.memory.remove(raise.server());
			this.notDurable.remove(raise.server());
		}
		catch (SQLException ex) {
			this.memory.put(raise.server(), raise);
			this.notDurable.put(raise.server(),
					TABLE + " cannot be written (" + ex.getMessage() + ", SQLState " + ex.getSQLState() + ")");
		}
	}

	/**
	 * Forgets a server's raise: put back, or over.
	 * @param connection a session in the database
	 * @param server the server's key
	 * @throws SQLException when the table cannot be written
	 */
	void delete(Connection connection, String server) throws SQLException {
		this.memory.remove(server);
		if (trusted(connection, server)) {
			try (PreparedStatement delete = connection.prepareStatement("DELETE FROM " + TABLE + " WHERE server = ?")) {
				delete.setString(1, server);
				delete.executeUpdate();
			}
			this.notDurable.remove(server);
		}
	}

	/**
	 * Why a server's raise is kept only in this instance's memory, {@code null} when it
	 * is recorded in the database.
	 * @param server the server's key
	 * @return the reason
	 */
	String notDurableBecause(String server) {
		return this.notDurable.get(server);
	}

	private record LookedAround(String lead, long current, Instant at) {
	}

}
