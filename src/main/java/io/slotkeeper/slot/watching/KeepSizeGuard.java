package io.slotkeeper.slot.watching;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.slotkeeper.audit.Auditor;
import io.slotkeeper.fleet.FailureDescription;
import io.slotkeeper.fleet.Target;
import io.slotkeeper.problem.ProblemException;
import io.slotkeeper.problem.ProblemKind;
import io.slotkeeper.settings.ServerSettings;
import io.slotkeeper.settings.SettingFinding;
import io.slotkeeper.slot.reading.ReplicationSlot;
import io.slotkeeper.slot.reading.SlotInsight;

/**
 * The opt-in protection of {@code slots[n].on-outage}: on the instance that owns the target, raises the server's
 * {@code max_slot_wal_keep_size} up to the slot's cap while the slot's consumer is gone and its outage budget is low,
 * and puts the value back once every slot it was raised for is read again (or gone). Where the role may not
 * ({@code ALTER SYSTEM} on the parameter and {@code pg_reload_conf()}), nothing is changed and the refusal is said.
 * Each change and refusal is audited ({@code server.keep-size}); what stands is a finding of the settings audit.
 */
final class KeepSizeGuard {

	static final String SETTING = "max_slot_wal_keep_size";

	static final String ACTION = "server.keep-size";

	private static final Logger logger = LoggerFactory.getLogger(SlotHealer.class);

	// How long after pg_reload_conf() a reading may still show the value before: every session reloads at its next
	// statement once the postmaster signalled it.
	private static final Duration RELOADED = Duration.ofSeconds(1);

	private final Auditor auditor;

	private final Clock clock;

	private final Map<String, Raised> raised = new ConcurrentHashMap<>();

	private final Map<String, String> refused = new ConcurrentHashMap<>();

	KeepSizeGuard(Auditor auditor, Clock clock) {
		this.auditor = auditor;
		this.clock = clock;
	}

	/**
	 * Whether the guard has anything to do for a target: a slot opted in, or a raise to put back.
	 * @param target the target
	 * @return whether to call {@link #guard}
	 */
	boolean concerns(Target target) {
		return this.raised.containsKey(target.name())
				|| target.policies().stream().anyMatch((policy) -> policy.onOutage() != null);
	}

	/**
	 * Raises, keeps or puts back the target's {@code max_slot_wal_keep_size} after a poll.
	 * @param target the target
	 * @param slots the slots the poll read
	 * @param settings the settings the poll read
	 * @param insights what the polls concluded about each slot, by name
	 * @return the findings that stand for the settings audit: a raise in force, or a raise refused
	 */
	List<SettingFinding> guard(Target target, List<ReplicationSlot> slots, ServerSettings settings,
			Function<String, SlotInsight> insights) {
		Optional<Long> current = settings.get(SETTING).flatMap(ServerSettings.Setting::number);
		if (Boolean.FALSE.equals(target.ownership().state()) || current.isEmpty()) {
			return List.of();
		}
		Raised done = this.raised.get(target.name());
		// A reading from before the raise took effect (shared with another target, or read as the server reloaded)
		// would look like a value someone put back by hand: wait for a later one.
		if (done != null && !settings.readAt().isAfter(done.serverAt().plus(RELOADED))) {
			return findings(target.name(), done.toMegabytes());
		}
		OutageNeed need = OutageNeed.of(target.policies(), slots, insights);
		if (done != null && need.isEmpty() && !done.stillNeeded(slots)) {
			putBack(target, done, current.get());
			return List.of();
		}
		if (need.isEmpty()) {
			this.refused.remove(target.name());
		}
		else if (current.get() >= 0 && current.get() < need.capMegabytes()) {
			raise(target, done, current.get(), need);
		}
		return findings(target.name(), current.get());
	}

	private void raise(Target target, Raised before, long currentMegabytes, OutageNeed need) {
		Map<String, Object> parameters = Auditor.parameters("from", currentMegabytes + "MB", "to",
				need.capMegabytes() + "MB", "slots", need.slots(), "budgetSeconds", Math.round(need.leastSeconds()));
		try (Connection connection = target.primary().connection()) {
			KeepSizePrivileges privileges = KeepSizePrivileges.read(connection);
			String refusal = privileges.refusal(target.primary().username());
			if (refusal != null) {
				refuse(target, need, parameters, ProblemKind.INSUFFICIENT_PRIVILEGE, refusal);
				return;
			}
			Instant serverAt = set(connection, "ALTER SYSTEM SET " + SETTING + " = '" + need.capMegabytes() + "MB'");
			// The first raise remembers what to put back; a later, higher one keeps it.
			Raised now = (before != null) ? before.to(need, serverAt) : new Raised(currentMegabytes,
					privileges.fromAutoConf() ? "ALTER SYSTEM SET " + SETTING + " = '" + currentMegabytes + "MB'"
							: "ALTER SYSTEM RESET " + SETTING,
					need.capMegabytes(), need.slots(), this.clock.instant(), serverAt);
			this.raised.put(target.name(), now);
			this.refused.remove(target.name());
			logger.warn("Raised {} from {}MB to {}MB: the consumers of {} are gone and the slots' outage budget is"
					+ " {} s", SETTING, currentMegabytes, need.capMegabytes(), need.slots(),
					Math.round(need.leastSeconds()));
			this.auditor.recordOutcome(Auditor.SELF, ACTION, target.name(), need.slots().get(0), parameters,
					new Auditor.Summary("done", 200, "raised; put back with: " + now.restore(), Map.of(), null));
		}
		catch (SQLException ex) {
			refuse(target, need, parameters, ProblemKind.DATABASE_ERROR,
					FailureDescription.of(ex, this.clock.instant()).message() + " (SQLState " + ex.getSQLState() + ")");
		}
	}

	private void putBack(Target target, Raised done, long currentMegabytes) {
		this.raised.remove(target.name());
		Map<String, Object> parameters = Auditor.parameters("from", currentMegabytes + "MB", "to",
				done.fromMegabytes() + "MB", "slots", done.slots());
		if (currentMegabytes != done.toMegabytes()) {
			this.auditor.recordRefusal(Auditor.SELF, ACTION, target.name(), done.slots().get(0), SETTING + " is "
					+ currentMegabytes + "MB, not the " + done.toMegabytes() + "MB slot-keeper set: someone changed it"
					+ " since, so it is left as it is");
			return;
		}
		try (Connection connection = target.primary().connection()) {
			set(connection, done.restore());
			logger.info("Put {} back to {}MB: the consumers of {} read again", SETTING, done.fromMegabytes(),
					done.slots());
			this.auditor.recordOutcome(Auditor.SELF, ACTION, target.name(), done.slots().get(0), parameters,
					new Auditor.Summary("done", 200, "put back: " + done.restore(), Map.of(), null));
		}
		catch (SQLException ex) {
			// Tried again at the next poll: the raise still stands.
			this.raised.put(target.name(), done);
			logger.warn("Could not put {} back to {}MB: {}", SETTING, done.fromMegabytes(),
					FailureDescription.of(ex, this.clock.instant()).message());
		}
	}

	private void refuse(Target target, OutageNeed need, Map<String, Object> parameters, ProblemKind kind,
			String reason) {
		// Said once per reason, not at every poll.
		if (!reason.equals(this.refused.put(target.name(), reason))) {
			logger.warn("Not raising {} for {}: {}", SETTING, need.slots(), reason);
			this.auditor.recordFailure(Auditor.SELF, ACTION, target.name(), need.slots().get(0), parameters,
					new ProblemException(kind, reason));
		}
	}

	private List<SettingFinding> findings(String target, long currentMegabytes) {
		Raised done = this.raised.get(target);
		String refusal = this.refused.get(target);
		if (refusal != null) {
			return List.of(new SettingFinding(SETTING, currentMegabytes + "MB", SettingFinding.CRITICAL, "cannot be raised for the"
					+ " slots whose consumer is gone (on-outage): " + refusal));
		}
		if (done != null) {
			return List.of(new SettingFinding(SETTING, done.toMegabytes() + "MB", SettingFinding.WARNING, "raised by"
					+ " slot-keeper from " + done.fromMegabytes() + "MB at " + done.at() + " for " + String.join(", ",
							done.slots()) + ", whose consumer is gone (on-outage); put back when it reads again"));
		}
		return List.of();
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

	/**
	 * A raise in force.
	 *
	 * @param fromMegabytes the value before the first raise
	 * @param restore the statement that puts it back: {@code RESET} where the value came from
	 * {@code postgresql.conf}, the value itself where {@code postgresql.auto.conf} (or, unreadable, unknown) held it
	 * @param toMegabytes the value set
	 * @param slots the slots it was raised for
	 * @param at when it was raised first
	 * @param serverAt the server's clock when it was last raised, to tell readings from before it
	 */
	record Raised(long fromMegabytes, String restore, long toMegabytes, List<String> slots, Instant at,
			Instant serverAt) {

		Raised to(OutageNeed need, Instant raisedAt) {
			List<String> all = new ArrayList<>(this.slots);
			need.slots().stream().filter((slot) -> !all.contains(slot)).forEach(all::add);
			return new Raised(this.fromMegabytes, this.restore, need.capMegabytes(), List.copyOf(all), this.at,
					raisedAt);
		}

		// A slot still needs the room while it exists, is not lost and no consumer reads it.
		boolean stillNeeded(List<ReplicationSlot> read) {
			return read.stream()
				.anyMatch((slot) -> this.slots.contains(slot.slotName()) && !Boolean.TRUE.equals(slot.active())
						&& !slot.invalidated());
		}

	}

}
