package io.slotkeeper.slot.watching;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.BiFunction;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.slotkeeper.audit.Auditor;
import io.slotkeeper.fleet.AdvisoryLocks;
import io.slotkeeper.fleet.FailureDescription;
import io.slotkeeper.fleet.Target;
import io.slotkeeper.problem.ProblemException;
import io.slotkeeper.problem.ProblemKind;
import io.slotkeeper.settings.ServerSettings;
import io.slotkeeper.settings.SettingFinding;
import io.slotkeeper.slot.reading.ReplicationSlot;
import io.slotkeeper.slot.reading.SlotInsight;

/**
 * The opt-in protection of {@code slots[n].on-outage}, one per server: {@code max_slot_wal_keep_size} is the server's,
 * so the slots of every target on it are weighed together, and one instance acts for the server — the owner of its
 * lead target (the first by name of its targets with an {@code on-outage} slot), under a lock in that target's
 * database where the raise is recorded ({@link KeepSizeRecords}). It raises the setting up to the highest cap while a
 * slot's consumer is gone and its outage budget is low, and puts the value back once every slot it was raised for is
 * read again (or gone) and every slot of the server retains less than {@link KeepSizeRaise#PUT_BACK_SHARE} of the
 * value it goes back to. A value an operator set while the raise stood is theirs: it is audited and left alone until
 * the outage is over. Where the role may not ({@code ALTER SYSTEM} on the parameter and {@code pg_reload_conf()}),
 * nothing is changed and the refusal is said. Each change and refusal is audited ({@code server.keep-size}); what
 * stands is a finding of the settings audit on every target of the server.
 */
final class KeepSizeGuard {

	static final String SETTING = "max_slot_wal_keep_size";

	static final String ACTION = "server.keep-size";

	private static final Logger logger = LoggerFactory.getLogger(KeepSizeGuard.class);

	// How long after pg_reload_conf() a reading may still show the value before: every session reloads at its next
	// statement once the postmaster signalled it.
	private static final Duration RELOADED = Duration.ofSeconds(1);

	private final Auditor auditor;

	private final Clock clock;

	private final KeepSizeRecords records = new KeepSizeRecords();

	private final Map<String, KeepSizeRaise> standing = new ConcurrentHashMap<>();

	private final Map<String, String> refused = new ConcurrentHashMap<>();

	private final Map<String, String> waiting = new ConcurrentHashMap<>();

	KeepSizeGuard(Auditor auditor, Clock clock) {
		this.auditor = auditor;
		this.clock = clock;
	}

	/**
	 * Whether the guard has anything to do after a target's poll: it opted in, or its server has a raise that this
	 * instance knows of.
	 * @param target the target
	 * @return whether to call {@link #guard}
	 */
	boolean concerns(Target target) {
		String server = KeepSizeServer.keyOf(target);
		return KeepSizeServer.optedIn(target) || (server != null && this.standing.containsKey(server));
	}

	/**
	 * Raises, keeps or puts back a server's {@code max_slot_wal_keep_size} after a target's poll.
	 * @param target the target polled
	 * @param fleet every target of the fleet, of which those of the same server count
	 * @param slots every slot of the server, as the poll read it
	 * @param settings the settings the poll read
	 * @param insights what the polls concluded, by target and slot name
	 * @return the findings that stand for the settings audit: a raise in force, or a raise refused
	 */
	List<SettingFinding> guard(Target target, List<Target> fleet, List<ReplicationSlot> slots, ServerSettings settings,
			BiFunction<String, String, SlotInsight> insights) {
		Optional<Long> current = settings.get(SETTING).flatMap(ServerSettings.Setting::number);
		Optional<KeepSizeServer> server = KeepSizeServer.of(target, fleet);
		if (current.isEmpty() || server.isEmpty()) {
			return List.of();
		}
		String key = server.get().key();
		if (!server.get().actsHere()) {
			// Another instance acts for the server; what this one knew of it is no longer its to show.
			this.standing.remove(key);
			this.refused.remove(key);
			return List.of();
		}
		if (server.get().lead() == target) {
			try {
				act(server.get(), slots, settings, current.get(), insights);
			}
			catch (SQLException | RuntimeException ex) {
				logger.warn("The WAL-limit guard of server {} could not act through target '{}': {}", key,
						target.name(), FailureDescription.of(ex, this.clock.instant()).message());
			}
		}
		return findings(key, current.get());
	}

	// The server's lock in the lead's database: an instance that still believes it owns the lead after losing it waits
	// for the one that does, and reads the record the other wrote.
	private void act(KeepSizeServer server, List<ReplicationSlot> slots, ServerSettings settings, long current,
			BiFunction<String, String, SlotInsight> insights) throws SQLException {
		try (Connection connection = server.lead().primary().connection()) {
			long key = AdvisoryLocks.keepSizeKey(server.key());
			if (!AdvisoryLocks.tryLock(connection, key)) {
				return;
			}
			try {
				KeepSizeRaise raise = this.records.find(connection, server);
				if (raise != null) {
					this.standing.put(server.key(), raise);
				}
				else {
					this.standing.remove(server.key());
				}
				// A reading from before the raise took effect (shared with another target, or read as the server
				// reloaded) would look like a value someone changed by hand: wait for a later one.
				if (raise != null && !settings.readAt().isAfter(raise.serverAt().plus(RELOADED))) {
					return;
				}
				OutageNeed need = OutageNeed.of(server.policies(), slots, server.insights(insights));
				decide(connection, server.lead(), raise, need, slots, current);
			}
			finally {
				AdvisoryLocks.unlock(connection, key);
			}
		}
	}

	private void decide(Connection connection, Target lead, KeepSizeRaise raise, OutageNeed need,
			List<ReplicationSlot> slots, long current) throws SQLException {
		String server = (raise != null) ? raise.server() : KeepSizeServer.keyOf(lead);
		if (raise != null && current != raise.expectedMegabytes()) {
			yieldTo(connection, lead, raise, current);
			return;
		}
		if (raise != null && need.isEmpty() && !raise.stillNeeded(slots)) {
			if (raise.yieldedTo() != null) {
				this.records.delete(connection, server);
				this.standing.remove(server);
				this.auditor.recordOutcome(Auditor.SELF, ACTION, lead.name(), raise.slots().get(0),
						Auditor.parameters("value", current + "MB", "slots", raise.slots()), new Auditor.Summary("done",
								200, "the consumers of " + raise.slots() + " read again; " + SETTING + " stays at the "
										+ current + "MB an operator set during the raise", Map.of(), null));
				return;
			}
			ReplicationSlot inTheWay = raise.inTheWay(slots);
			if (inTheWay != null) {
				this.waiting.put(server, "every slot of the server retains less than "
						+ Math.round(KeepSizeRaise.PUT_BACK_SHARE * 100) + "% of the " + raise.fromMegabytes()
						+ "MB it goes back to (slot " + inTheWay.slotName() + " retains "
						+ inTheWay.retainedWalBytes() / (1024 * 1024) + "MB)");
				return;
			}
			putBack(connection, lead, raise, current);
			return;
		}
		this.waiting.remove(server);
		if (need.isEmpty()) {
			this.refused.remove(server);
		}
		else if ((raise == null || raise.yieldedTo() == null) && current >= 0 && current < need.capMegabytes()) {
			raise(connection, lead, raise, current, need);
		}
	}

	private void raise(Connection connection, Target lead, KeepSizeRaise before, long currentMegabytes,
			OutageNeed need) throws SQLException {
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
			KeepSizeRaise now = (before != null) ? before.to(need, serverAt) : new KeepSizeRaise(server,
					currentMegabytes, privileges.restore(currentMegabytes), need.capMegabytes(), need.slots(),
					this.clock.instant(), serverAt, null);
			this.records.write(connection, now);
			this.standing.put(server, now);
			this.refused.remove(server);
			String memoryOnly = this.records.notDurableBecause(server);
			logger.warn("Raised {} from {}MB to {}MB: the consumers of {} are gone and the slots' outage budget is"
					+ " {} s{}", SETTING, currentMegabytes, need.capMegabytes(), need.slots(),
					Math.round(need.leastSeconds()), (memoryOnly != null) ? "; the raise is kept in this instance's"
							+ " memory only, as " + memoryOnly : "");
			this.auditor.recordOutcome(Auditor.SELF, ACTION, lead.name(), need.slots().get(0), parameters,
					new Auditor.Summary("done", 200, "raised; put back with: " + now.restore()
							+ privileges.restoreNote(lead.primary().username()), Map.of(), null));
		}
		catch (SQLException ex) {
			refuse(server, lead, need, parameters, ProblemKind.DATABASE_ERROR,
					FailureDescription.of(ex, this.clock.instant()).message() + " (SQLState " + ex.getSQLState() + ")");
		}
	}

	private void yieldTo(Connection connection, Target lead, KeepSizeRaise raise, long currentMegabytes) {
		KeepSizeRaise yielded = raise.yielded(currentMegabytes);
		this.records.write(connection, yielded);
		this.standing.put(raise.server(), yielded);
		this.waiting.remove(raise.server());
		this.auditor.recordRefusal(Auditor.SELF, ACTION, lead.name(), raise.slots().get(0), SETTING + " is "
				+ currentMegabytes + "MB, not the " + raise.expectedMegabytes() + "MB "
				+ ((raise.yieldedTo() != null) ? "an operator set before" : "slot-keeper set")
				+ ": someone changed it since, so it is left as it is, neither raised again nor put back to "
				+ raise.fromMegabytes() + "MB until the consumers of " + raise.slots() + " read again");
	}

	private void putBack(Connection connection, Target lead, KeepSizeRaise raise, long currentMegabytes)
			throws SQLException {
		Map<String, Object> parameters = Auditor.parameters("from", currentMegabytes + "MB", "to",
				raise.fromMegabytes() + "MB", "slots", raise.slots());
		set(connection, raise.restore());
		this.records.delete(connection, raise.server());
		this.standing.remove(raise.server());
		this.waiting.remove(raise.server());
		logger.info("Put {} back to {}MB: the consumers of {} read again", SETTING, raise.fromMegabytes(),
				raise.slots());
		this.auditor.recordOutcome(Auditor.SELF, ACTION, lead.name(), raise.slots().get(0), parameters,
				new Auditor.Summary("done", 200, "put back: " + raise.restore(), Map.of(), null));
	}

	private void refuse(String server, Target lead, OutageNeed need, Map<String, Object> parameters,
			ProblemKind kind, String reason) {
		// Said once per reason, not at every poll.
		if (!reason.equals(this.refused.put(server, reason))) {
			logger.warn("Not raising {} for {}: {}", SETTING, need.slots(), reason);
			this.auditor.recordFailure(Auditor.SELF, ACTION, lead.name(), need.slots().get(0), parameters,
					new ProblemException(kind, reason));
		}
	}

	private List<SettingFinding> findings(String server, long currentMegabytes) {
		String refusal = this.refused.get(server);
		if (refusal != null) {
			return List.of(new SettingFinding(SETTING, currentMegabytes + "MB", SettingFinding.CRITICAL, "cannot be"
					+ " raised for the slots whose consumer is gone (on-outage): " + refusal));
		}
		KeepSizeRaise raise = this.standing.get(server);
		return (raise == null) ? List.of() : List.of(raise.finding(currentMegabytes, this.waiting.get(server),
				this.records.notDurableBecause(server)));
	}

	// Returns the server's clock once the reload was asked for: readings after it (and a moment for every session to
	// reload) show the new value.
	private static Instant set(Connection connection, String alterSystem) throws SQLException {
		try (Statement statement = connection.createStatement()) {
			statement.execute(alterSystem);
			try (ResultSet row = statement.executeQuery("SELECT pg_catalog.pg_reload_conf(),"
					+ " pg_catalog.clock_timestamp()")) {
				row.next();
				return row.getObject(2, OffsetDateTime.class).toInstant();
			}
		}
	}

}
