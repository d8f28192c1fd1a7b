package io.slotkeeper.handover;

import java.time.Clock;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Timestamp;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.slotkeeper.connect.ChosenState;
import io.slotkeeper.fleet.Target;
import io.slotkeeper.sessions.FailureDescription;
import io.slotkeeper.sessions.OwnTables;

/**
 * The connector handovers to complete at the next slot poll: those that wait for Kafka
 * Connect to answer, and those of connectors whose task failed on a stale offset, kept in
 * the target's own database (table {@code slotkeeper.handovers}, beside the heal
 * attempts): the consumer being down is usually why its slot was lost, so the handover
 * outlives this instance — a restart, or another instance taking over, completes it. A
 * handover that cannot be written there (no privilege, a table another role made, the
 * primary gone) is kept in this instance's memory and said in the log. One row per slot:
 * a later recreate's position replaces an earlier one's.
 */
public final class PendingHandovers {

	static final String TABLE = "slotkeeper.handovers";

	private static final String COLUMNS = "slot text PRIMARY KEY, connector text NOT NULL, position bigint,"
			+ " since timestamptz NOT NULL, reason text NOT NULL, chosen text";

	private static final Logger logger = LoggerFactory.getLogger(PendingHandovers.class);

	private final Map<String, Map<String, Pending>> memory = new ConcurrentHashMap<>();

	// Another instance may keep one after this one read the table empty: a read that old
	// is read again.
	private static final Duration READ_AGAIN = Duration.ofMinutes(1);

	// When each target's table was read empty since this instance last kept one there:
	// polls in between read nothing.
	private final Map<String, Instant> none = new ConcurrentHashMap<>();

	// The handovers this instance is completing now, which its own polls leave to it: the
	// same rows, kept as they began, are another instance's to complete once this one
	// ended before it did.
	private final Set<String> underWay = ConcurrentHashMap.newKeySet();

	private final Clock clock;

	/**
	 * @param clock when a handover is kept and a table read
	 */
	public PendingHandovers(Clock clock) {
		this.clock = clock;
	}

	/**
	 * Keeps a handover to complete later, since now.
	 * @param target the target
	 * @param slot the slot made anew
	 * @param connector the connector's name
	 * @param position the position its offsets go to, {@code null} when unknown
	 * @param reason why it waits, for the audit
	 * @param chosen what its user chose, {@code null} when nothing
	 */
	public void keep(Target target, String slot, String connector, Long position, String reason, ChosenState chosen) {
		this.underWay.remove(underWayKey(target, slot));
		keep(target, new Pending(slot, connector, position, this.clock.instant(), reason, chosen));
	}

	/**
	 * Keeps a handover as it begins, its connector stopped by slot-keeper: should this
	 * instance end before it completes (killed, its node gone), the connector would stay
	 * stopped with no one to resume it; kept, the target's next owner completes it as a
	 * pending one. This instance's own polls leave it alone until {@link #completed} or
	 * {@link #keep} (waiting for Kafka Connect) says what became of it.
	 * @param target the target
	 * @param slot the slot made anew
	 * @param connector the connector's name
	 * @param position the position its offsets go to, {@code null} when unknown
	 * @param chosen what its user chose
	 */
	public void begun(Target target, String slot, String connector, Long position, ChosenState chosen) {
		this.underWay.add(underWayKey(target, slot));
		keep(target, new Pending(slot, connector, position, this.clock.instant(),
				"the instance that recreated the slot ended during its handover", chosen));
	}

	/**
	 * Removes a handover this instance began and completed.
	 * @param target the target
	 * @param slot the slot
	 */
	public void completed(Target target, String slot) {
		try {
			target.primary().withConnection((connection) -> {
				done(connection, target, slot);
				return null;
			});
		}
		catch (RuntimeException ex) {
			// A row left is completed again by the next poll: the connector handed over
			// already is stopped, aligned and resumed once more.
			logger.warn("The completed handover of slot '{}' (target '{}') is still kept in {}: {}", slot,
					target.name(), TABLE, FailureDescription.messageOf(ex));
		}
		finally {
			this.underWay.remove(underWayKey(target, slot));
		}
	}

	private void keep(Target target, Pending pending) {
		this.none.remove(target.name());
		try {
			target.primary().withConnection((connection) -> {
				OwnTables.create(connection, TABLE, COLUMNS, true);
				// A table made by an earlier version lacks the user's choice.
				try (Statement alter = connection.createStatement()) {
					alter.execute("ALTER TABLE " + TABLE + " ADD COLUMN IF NOT EXISTS chosen text");
				}
				try (PreparedStatement upsert = connection.prepareStatement("INSERT INTO " + TABLE
						+ " (slot, connector,"
						+ " position, since, reason, chosen) VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (slot) DO UPDATE SET"
						+ " connector = EXCLUDED.connector, position = EXCLUDED.position, since = EXCLUDED.since,"
						+ " reason = EXCLUDED.reason, chosen = COALESCE(EXCLUDED.chosen, " + TABLE + ".chosen)")) {
					upsert.setString(1, pending.slot());
					upsert.setString(2, pending.connector());
					upsert.setObject(3, pending.position());
					upsert.setTimestamp(4, Timestamp.from(pending.since()));
					upsert.setString(5, pending.reason());
					upsert.setString(6, (pending.chosen() != null) ? pending.chosen().lowerCase() : null);
					upsert.executeUpdate();
				}
				return null;
			});
			forget(target, pending.slot());
		}
		catch (RuntimeException ex) {
			this.memory.computeIfAbsent(target.name(), (name) -> new ConcurrentHashMap<>())
				.put(pending.slot(), pending);
			logger.warn(
					"The pending handover of connector '{}' (target '{}', slot '{}') is kept in this instance's"
							+ " memory only: writing {} failed: {}",
					pending.connector(), target.name(), pending.slot(), TABLE, FailureDescription.messageOf(ex));
		}
	}

	/**
	 * Whether the target may have handovers waiting, without reading its database.
	 * @param target the target
	 * @return {@code false} when its table was read empty within a minute, and none was
	 * kept since
	 */
	boolean mayHave(Target target) {
		Instant empty = this.none.get(target.name());
		return empty == null || empty.isBefore(this.clock.instant().minus(READ_AGAIN))
				|| !this.memory.getOrDefault(target.name(), Map.of()).isEmpty();
	}

	/**
	 * The handovers waiting, in the database and in memory.
	 * @param connection a session on the target's primary
	 * @param target the target
	 * @return by slot
	 * @throws SQLException when the table cannot be read
	 */
	List<Pending> waiting(Connection connection, Target target) throws SQLException {
		List<Pending> waiting = new ArrayList<>(this.memory.getOrDefault(target.name(), Map.of()).values());
		boolean table;
		try (PreparedStatement exists = connection.prepareStatement("SELECT pg_catalog.to_regclass(?) IS NOT NULL")) {
			exists.setString(1, TABLE);
			try (ResultSet result = exists.executeQuery()) {
				result.next();
				table = result.getBoolean(1);
			}
		}
		if (table) {
			try (PreparedStatement select = connection
				.prepareStatement("SELECT slot, connector, position, since, reason, pg_catalog.to_jsonb(h) ->> 'chosen'"
						+ " FROM " + TABLE + " h ORDER BY slot");
					ResultSet result = select.executeQuery()) {
				while (result.next()) {
					waiting.add(new Pending(result.getString(1), result.getString(2), (Long) result.getObject(3),
							result.getTimestamp(4).toInstant(), result.getString(5),
							(result.getString(6) != null) ? ChosenState.named(result.getString(6)) : null));
				}
			}
		}
		if (waiting.isEmpty()) {
			this.none.put(target.name(), this.clock.instant());
		}
		waiting.removeIf((pending) -> this.underWay.contains(underWayKey(target, pending.slot())));
		return waiting;
	}

	/**
	 * Removes a handover that was completed, or that no longer applies.
	 * @param connection a session on the target's primary
	 * @param target the target
	 * @param slot the slot
	 * @throws SQLException when the table cannot be written
	 */
	void done(Connection connection, Target target, String slot) throws SQLException {
		forget(target, slot);
		try (PreparedStatement delete = connection.prepareStatement("DELETE FROM " + TABLE + " WHERE slot = ?")) {
			delete.setString(1, slot);
			delete.executeUpdate();
		}
		catch (SQLException ex) {
			if (!"42P01".equals(ex.getSQLState())) {
				throw ex;
			}
		}
	}

	private static String underWayKey(Target target, String slot) {
		return target.name() + "/" + slot;
	}

	private void forget(Target target, String slot) {
		Map<String, Pending> kept = this.memory.get(target.name());
		if (kept != null) {
			kept.remove(slot);
		}
	}

	/**
	 * A handover waiting for Kafka Connect.
	 *
	 * @param slot the recreated slot
	 * @param connector the connector's name
	 * @param position the slot's confirmed position to align to (Debezium's {@code lsn}),
	 * {@code null} when it had none
	 * @param since when it was kept
	 * @param reason why the connector is handed over: its slot recreated while Kafka
	 * Connect could not be reached, or its task failed on a stored offset that predates
	 * its slot
	 * @param chosen the state the connector's user chose, read before slot-keeper stopped
	 * it, {@code null} when it was not read: the completion puts it back into that state,
	 * not into the one slot-keeper's own stop left
	 */
	public record Pending(String slot, String connector, Long position, Instant since, String reason,
			ChosenState chosen) {
	}

}
