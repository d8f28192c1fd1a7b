package io.slotkeeper.outage;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Clock;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.util.List;
import java.util.Map;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.slotkeeper.audit.Auditor;
import io.slotkeeper.audit.Happening;
import io.slotkeeper.fleet.Target;
import io.slotkeeper.problem.ProblemException;
import io.slotkeeper.problem.ProblemKind;
import io.slotkeeper.sessions.FailureDescription;

import static io.slotkeeper.outage.KeepSizeGuard.ACTION;
import static io.slotkeeper.outage.KeepSizeGuard.SETTING;

/**
 * The changes of a server's {@code max_slot_wal_keep_size} the guard decided
 * ({@link KeepSizeGuard}): a raise (where the role may), a value an operator set during a
 * raise left alone, the put-back, the end of a raise an operator took over; each recorded
 * where every instance reads it ({@link KeepSizeRecords}), audited and logged.
 */
final class KeepSizeChanges {

	private static final Logger logger = LoggerFactory.getLogger(KeepSizeChanges.class);

	private final Auditor auditor;

	private final Clock clock;

	private final KeepSizeRecords records;

	private final KeepSizeStanding standing;

	// What an event says slot-keeper was doing.
	private static final String RAISE = "RaiseWalLimit";

	KeepSizeChanges(Auditor auditor, Clock clock, KeepSizeRecords records, KeepSizeStanding standing) {
		this.auditor = auditor;
		this.clock = clock;
		this.records = records;
		this.standing = standing;
	}

	// The consumers read again after an operator had set a value of their own: the raise
	// is over, the value stays.
	void endYielded(Connection connection, Target lead, KeepSizeRaise raise, long current) throws SQLException {
		this.records.delete(connection, raise.server());
		this.standing.over(raise.server());
		this.auditor
			.recordOutcome(Auditor.SELF, ACTION, lead.name(), raise.slots().get(0),
					Auditor.parameters("value", current + "MB", "slots", raise.slots()),
					new Auditor.Summary(
							"done", 200, "the consumers of " + raise.slots() + " read again; " + SETTING
									+ " stays at the " + current + "MB an operator set during the raise",
							Map.of(), null));
	}

	void raise(Connection connection, Target lead, KeepSizeRaise before, long currentMegabytes, OutageNeed need)
			throws SQLException {
		String server = KeepSizeServer.keyOf(lead);
		Map<String, Object> parameters = Auditor.parameters("from", currentMegabytes + "MB", "to",
				need.capMegabytes() + "MB", "slots", need.slots(), "budgetSeconds", Math.round(need.leastSeconds()));
		KeepSizePrivileges privileges = KeepSizePrivileges.read(connection);
		String refusal = privileges.refusal(lead.primary().username());
		if (refusal != null) {
			refuse(server, lead, need, parameters, ProblemKind.INSUFFICIENT_PRIVILEGE, refusal);
			return;
		}
		try {
			Instant serverAt = set(connection, "ALTER SYSTEM SET " + SETTING + " = '" + need.capMegabytes() + "MB'");
			// The first raise remembers what to put back; a later, higher one keeps it.
			KeepSizeRaise now = (before != null) ? before.to(need, serverAt)
					: new KeepSizeRaise(server, currentMegabytes, privileges.restore(currentMegabytes),
							need.capMegabytes(), need.slots(), this.clock.instant(), serverAt, null);
			this.records.write(connection, now);
			this.standing.raised(server, now);
			String memoryOnly = this.records.notDurableBecause(server);
			logger.warn(
					"Raised {} from {}MB to {}MB: the consumers of {} are gone and the slots' outage budget is"
							+ " {} s{}",
					SETTING, currentMegabytes, need.capMegabytes(), need.slots(), Math.round(need.leastSeconds()),
					(memoryOnly != null) ? "; the raise is kept in this instance's" + " memory only, as " + memoryOnly
							: "");
			this.auditor.recordOutcome(Auditor.SELF, ACTION, lead.name(), need.slots().get(0), parameters,
					new Auditor.Summary("done", 200, "raised; put back with: " + now.restore()
							+ privileges.restoreNote(lead.primary().username()), Map.of(), null));
			this.auditor.tell(Happening.warning(lead.name(), need.slots().get(0), "WalLimitRaised", RAISE,
					"slot-keeper raised " + SETTING + " from " + currentMegabytes + "MB to " + need.capMegabytes()
							+ "MB on the server of target " + lead.name() + ": the consumers of " + need.slots()
							+ " are gone and would be lost within " + Math.round(need.leastSeconds())
							+ " s; it is put back once they read again."));
		}
		catch (SQLException ex) {
			refuse(server, lead, need, parameters, ProblemKind.DATABASE_ERROR,
					FailureDescription.of(ex, this.clock.instant()).message() + " (SQLState " + ex.getSQLState() + ")");
		}
	}

	void yieldTo(Connection connection, Target lead, KeepSizeRaise raise, long currentMegabytes) {
		KeepSizeRaise yielded = raise.yielded(currentMegabytes);
		this.records.write(connection, yielded);
		this.standing.yielded(raise.server(), yielded);
		this.auditor.recordRefusal(Auditor.SELF, ACTION, lead.name(), raise.slots().get(0),
				SETTING + " is " + currentMegabytes + "MB, not the " + raise.expectedMegabytes() + "MB "
						+ ((raise.yieldedTo() != null) ? "an operator set before" : "slot-keeper set")
						+ ": someone changed it since, so it is left as it is, neither raised again nor put back to "
						+ raise.fromMegabytes() + "MB until the consumers of " + raise.slots() + " read again");
	}

	// Slots that nobody reads and nobody asked room for were kept by the raise alone: the
	// value put back may
	// invalidate them, as it would have without the raise, and the audit names them.
	void putBack(Connection connection, Target lead, KeepSizeRaise raise, long currentMegabytes,
			List<String> leftToTheLimit) throws SQLException {
		Map<String, Object> parameters = Auditor.parameters("from", currentMegabytes + "MB", "to",
				raise.fromMegabytes() + "MB", "slots", raise.slots());
		set(connection, raise.restore());
		this.records.delete(connection, raise.server());
		this.standing.over(raise.server());
		String left = leftToTheLimit.isEmpty() ? ""
				: "; slots " + leftToTheLimit + " have no consumer and no"
						+ " on-outage policy and retain more than the " + raise.fromMegabytes()
						+ "MB may keep: the limit may" + " invalidate them, as it would have without the raise";
		logger.info("Put {} back to {}MB: the consumers of {} read again{}", SETTING, raise.fromMegabytes(),
				raise.slots(), left);
		this.auditor.recordOutcome(Auditor.SELF, ACTION, lead.name(), raise.slots().get(0), parameters,
				new Auditor.Summary("done", 200, "put back: " + raise.restore() + left, Map.of(), null));
		this.auditor.tell(Happening.normal(lead.name(), raise.slots().get(0), "WalLimitPutBack", RAISE,
				"slot-keeper put " + SETTING + " back to " + raise.fromMegabytes() + "MB on the server of target "
						+ lead.name() + ": the consumers of " + raise.slots() + " read again" + left + "."));
	}

	private void refuse(String server, Target lead, OutageNeed need, Map<String, Object> parameters, ProblemKind kind,
			String reason) {
		// Said once per reason, not at every poll.
		if (this.standing.refused(server, reason)) {
			logger.warn("Not raising {} for {}: {}", SETTING, need.slots(), reason);
			this.auditor.recordFailure(Auditor.SELF, ACTION, lead.name(), need.slots().get(0), parameters,
					new ProblemException(kind, reason));
		}
	}

	// Returns the server's clock once the reload was asked for: readings after it (and a
	// moment for every session to
	// reload) show the new value.
	private static Instant set(Connection connection, String alterSystem) throws SQLException {
		try (Statement statement = connection.createStatement()) {
			statement.execute(alterSystem);
			try (ResultSet row = statement
				.executeQuery("SELECT pg_catalog.pg_reload_conf()," + " pg_catalog.clock_timestamp()")) {
				row.next();
				return row.getObject(2, OffsetDateTime.class).toInstant();
			}
		}
	}

}
