package io.slotkeeper.heartbeat;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;

import io.slotkeeper.config.HeartbeatProperties;
import io.slotkeeper.config.StandbySnapshotMode;
import io.slotkeeper.fleet.StandbySnapshots;
import io.slotkeeper.sessions.FailureDescription;
import io.slotkeeper.sessions.NodeSession;

/**
 * The heartbeat's standby snapshot, ordered so that the target's slots move to it within
 * the beat. A slot's {@code restart_lsn} only moves to a running-transactions record
 * decoded while no earlier one is pending, and a pending one is applied when the consumer
 * confirms past it. So after the beat's record this waits (without holding a worker: each
 * check is a run of its own) until every active logical slot of the database confirmed
 * it, which applies whatever was pending; then it logs a snapshot, which becomes the
 * pending candidate, and a second record, whose confirmation applies it. Callers hold the
 * heartbeat's lock.
 */
final class SnapshotOrder {

	static final String OK = "ok";

	private static final Duration FIRST_CHECK = Duration.ofMillis(20);

	private static final Duration LAST_CHECK = Duration.ofMillis(500);

	private static final Duration LONGEST_WAIT = Duration.ofSeconds(10);

	private static final Duration IDLE_RECHECK = Duration.ofSeconds(30);

	private final StandbySnapshotMode mode;

	private final Duration wait;

	private final boolean replicas;

	private boolean usable;

	private long idleUntil;

	private Pending pending;

	SnapshotOrder(HeartbeatProperties settings, boolean replicas) {
		this.mode = settings.standbySnapshot();
		this.replicas = replicas;
		this.wait = settings.cadence().standbySnapshotWait(LONGEST_WAIT);
	}

	/**
	 * Decides for a new session whether its beats log snapshots.
	 * @param session the new session on the primary
	 * @return {@code ok} when auto found them allowed, or why this session's beats will
	 * not, for the operator; {@code null} when off, or on (the first snapshot tells)
	 * @throws SQLException when the privilege check fails
	 */
	String opened(NodeSession session) throws SQLException {
		this.pending = null;
		this.usable = false;
		this.idleUntil = 0;
		if (this.mode == StandbySnapshotMode.OFF) {
			return null;
		}
		if (session.version().major() < 16) {
			return "not available: pg_log_standby_snapshot() needs PostgreSQL 16 or later, this server is "
					+ session.version().text();
		}
		if (this.mode == StandbySnapshotMode.AUTO && !allowed(session.connection())) {
			return "not allowed: this role may not execute pg_log_standby_snapshot(); GRANT EXECUTE ON FUNCTION"
					+ " pg_log_standby_snapshot() TO <role> in this database to use it";
		}
		this.usable = true;
		return (this.mode == StandbySnapshotMode.AUTO) ? OK : null;
	}

	/**
	 * What follows a beat written by the owner.
	 * @param lsn the beat's record
	 * @param rest the rest of the interval
	 * @return when to run next: soon to check the consumers, or the rest of the interval
	 */
	Duration afterBeat(String lsn, Duration rest) {
		if (!this.usable || lsn == null || System.nanoTime() < this.idleUntil) {
			return rest;
		}
		long now = System.nanoTime();
		this.pending = new Pending(lsn, now + rest.toNanos(), now + Math.min(this.wait.toNanos(), rest.toNanos()),
				FIRST_CHECK);
		return FIRST_CHECK;
	}

	boolean awaiting() {
		return this.pending != null;
	}

	void reset() {
		this.pending = null;
	}

	/**
	 * Checks the consumers and, once they confirmed the beat (or waited long enough),
	 * logs the snapshot and the second record.
	 * @param connection the heartbeat's session
	 * @param writer writes the second record
	 * @param ledger books what the snapshot came to
	 * @return when to run next
	 * @throws SQLException when the session fails
	 */
	Duration followUp(Connection connection, HeartbeatWriter writer, HeartbeatLedger ledger) throws SQLException {
		Pending current = this.pending;
		long now = System.nanoTime();
		long[] slots = activeAndBehind(connection, current.lsn());
		if (now < current.giveUpAt() && slots[1] > 0) {
			this.pending = current.checkedAgain();
			return Duration.ofNanos(Math.min(current.check().toNanos(), current.giveUpAt() - now));
		}
		this.pending = null;
		Duration untilNextBeat = Duration.ofNanos(Math.max(0, current.nextBeatAt() - System.nanoTime()));
		// Nobody here or on a standby would decode it: with auto, the snapshot is not
		// worth its WAL, and the next
		// look for a consumer is in half a minute (a fleet of idle targets would
		// otherwise double its statements).
		if (slots[0] == 0 && !this.replicas && this.mode == StandbySnapshotMode.AUTO) {
			this.idleUntil = System.nanoTime() + IDLE_RECHECK.toNanos();
			return untilNextBeat;
		}
		String outcome = log(connection);
		if (OK.equals(outcome)) {
			writer.write(connection);
		}
		ledger.standbySnapshot(outcome, this.mode);
		return untilNextBeat;
	}

	private static boolean allowed(Connection connection) throws SQLException {
		try (PreparedStatement statement = connection.prepareStatement(
				"SELECT pg_catalog.has_function_privilege('pg_catalog.pg_log_standby_snapshot()', 'EXECUTE')");
				ResultSet result = statement.executeQuery()) {
			result.next();
			return result.getBoolean(1);
		}
	}

	// Slots without a consumer confirm nothing, so only active ones are waited for: how
	// many, and how many of them
	// have not confirmed the beat yet.
	private static long[] activeAndBehind(Connection connection, String lsn) throws SQLException {
		try (PreparedStatement statement = connection
			.prepareStatement("SELECT pg_catalog.count(*), pg_catalog.count(*) FILTER (WHERE"
					+ " confirmed_flush_lsn IS NULL OR confirmed_flush_lsn < ?::pg_lsn) FROM pg_catalog.pg_replication_slots"
					+ " WHERE slot_type = 'logical' AND active AND database = pg_catalog.current_database()")) {
			statement.setString(1, lsn);
			try (ResultSet result = statement.executeQuery()) {
				result.next();
				return new long[] { result.getLong(1), result.getLong(2) };
			}
		}
	}

	private static String log(Connection connection) {
		try {
			StandbySnapshots.log(connection);
			return OK;
		}
		catch (SQLException ex) {
			return "refused (SQLState " + ex.getSQLState() + "): " + FailureDescription.messageOf(ex)
					+ "; GRANT EXECUTE ON FUNCTION pg_log_standby_snapshot() TO <role> in this database";
		}
	}

	private record Pending(String lsn, long nextBeatAt, long giveUpAt, Duration check) {

		Pending checkedAgain() {
			Duration doubled = this.check.multipliedBy(2);
			return new Pending(this.lsn, this.nextBeatAt, this.giveUpAt,
					(doubled.compareTo(LAST_CHECK) < 0) ? doubled : LAST_CHECK);
		}

	}

}
