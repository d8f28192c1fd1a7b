package io.slotkeeper.outage;

import java.sql.Connection;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.BiFunction;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.slotkeeper.audit.Auditor;
import io.slotkeeper.fleet.Target;
import io.slotkeeper.replication.ReplicationSlot;
import io.slotkeeper.replication.SlotInsight;
import io.slotkeeper.sessions.AdvisoryLocks;
import io.slotkeeper.sessions.FailureDescription;
import io.slotkeeper.settings.RaisedLimit;
import io.slotkeeper.settings.ServerSettings;
import io.slotkeeper.settings.SettingFinding;

/**
 * The opt-in protection of {@code slots[n].on-outage}, one per server:
 * {@code max_slot_wal_keep_size} is the server's, so the slots of every target on it are
 * weighed together, and one instance acts for the server — the owner of its lead target
 * (the first by name of its targets with an {@code on-outage} slot), under a lock in that
 * target's database where the raise is recorded ({@link KeepSizeRecords}). It raises the
 * setting up to the highest cap while a slot's consumer is gone and its outage budget is
 * low, and puts the value back once every slot it was raised for is read again (or gone)
 * and every slot of the server retains less than {@link KeepSizeRaise#PUT_BACK_SHARE} of
 * the value it goes back to. A value an operator set while the raise stood is theirs: it
 * is audited and left alone until the outage is over; a raise made on a former primary is
 * put back there ({@link KeepSizeLeftBehind}). Where the role may not
 * ({@code ALTER SYSTEM} on the parameter and {@code pg_reload_conf()}), nothing is
 * changed and the refusal is said. Each change and refusal is audited
 * ({@code server.keep-size}); what stands is a finding of the settings audit on every
 * target of the server. This class decides; the changes are {@link KeepSizeChanges}',
 * what this instance knows of each server {@link KeepSizeStanding}'s.
 */
public final class KeepSizeGuard {

	/**
	 * The setting it guards.
	 */
	public static final String SETTING = "max_slot_wal_keep_size";

	/**
	 * Its audit action.
	 */
	public static final String ACTION = "server.keep-size";

	private static final Logger logger = LoggerFactory.getLogger(KeepSizeGuard.class);

	// How long after pg_reload_conf() a reading may still show the value before: every
	// session reloads at its next
	// statement once the postmaster signalled it.
	private static final Duration RELOADED = Duration.ofSeconds(1);

	private final Clock clock;

	private final KeepSizeRecords records;

	private final KeepSizeStanding standing = new KeepSizeStanding();

	private final KeepSizeChanges changes;

	private final KeepSizeLeftBehind leftBehind;

	private final Map<String, RaisedLimit> shown = new ConcurrentHashMap<>();

	private final Set<String> overdueSaid = ConcurrentHashMap.newKeySet();

	/**
	 * Creates the guard of this instance.
	 * @param auditor where changes and refusals are audited
	 * @param clock the clock
	 */
	public KeepSizeGuard(Auditor auditor, Clock clock) {
		this.clock = clock;
		this.records = new KeepSizeRecords(clock);
		this.changes = new KeepSizeChanges(auditor, clock, this.records, this.standing);
		this.leftBehind = new KeepSizeLeftBehind(auditor, this.records);
	}

	/**
	 * Whether the guard has anything to do after a target's poll: it opted in, or its
	 * server has a raise that this instance knows of.
	 * @param target the target
	 * @return whether to call {@link #guard}
	 */
	public boolean concerns(Target target) {
		String server = KeepSizeServer.keyOf(target);
		return KeepSizeServer.optedIn(target) || (server != null && this.standing.knows(server));
	}

	/**
	 * What a target's poll shows of its server's raise, on the poll's own thread so that
	 * it is said even while the guard's lane is busy or stuck: the raise in force, and
	 * since when no consumer needs it (every slot it was made for and every
	 * {@code on-outage} slot of the server is read again, lost or gone).
	 * @param target the target polled
	 * @param fleet every target of the fleet, of which those of the same server count
	 * @param slots every slot of the server, as the poll read it
	 * @param settings the settings the poll read
	 * @return the findings that stand for the settings audit: a raise in force, or a
	 * raise refused
	 */
	public List<SettingFinding> observe(Target target, List<Target> fleet, List<ReplicationSlot> slots,
			ServerSettings settings) {
		Optional<Long> current = settings.get(SETTING).flatMap(ServerSettings.Setting::number);
		Optional<KeepSizeServer> server = KeepSizeServer.of(target, fleet);
		if (current.isEmpty() || server.isEmpty() || !server.get().actsHere()) {
			this.shown.remove(target.name());
			return List.of();
		}
		String key = server.get().key();
		Instant now = this.clock.instant();
		KeepSizeRaise raise = this.standing.raise(key);
		boolean needed = raise != null && (raise.stillNeeded(slots) || server.get().consumerGone(slots));
		Optional<RaisedLimit> limit = this.standing.observe(key, needed, now);
		if (server.get().lead() == target && limit.isPresent()) {
			this.shown.put(target.name(), limit.get());
			sayOnceOverdue(key, limit.get(), now);
		}
		else {
			this.shown.remove(target.name());
		}
		return this.standing.findings(key, current.get(), this.records.notDurableBecause(key), now);
	}

	private void sayOnceOverdue(String server, RaisedLimit limit, Instant now) {
		if (!limit.overdue(now)) {
			this.overdueSaid.remove(server);
		}
		else if (this.overdueSaid.add(server)) {
			logger.warn("{} of server {} stays raised to {}MB: {}", SETTING, server, limit.toMegabytes(),
					limit.unneededNote(now));
		}
	}

	/**
	 * The raise of a target's server as its last poll showed it, on the server's lead
	 * target only.
	 * @param target the target's name
	 * @return the raise, empty when none stands, the target is not the lead or another
	 * instance acts for it
	 */
	public Optional<RaisedLimit> raisedLimit(String target) {
		return Optional.ofNullable(this.shown.get(target));
	}

	/**
	 * Raises, keeps or puts back a server's {@code max_slot_wal_keep_size} after a
	 * target's poll; what stands is shown by {@link #observe}.
	 * @param target the target polled
	 * @param fleet every target of the fleet, of which those of the same server count
	 * @param slots every slot of the server, as the poll read it
	 * @param settings the settings the poll read
	 * @param insights what the polls concluded, by target and slot name
	 */
	public void guard(Target target, List<Target> fleet, List<ReplicationSlot> slots, ServerSettings settings,
			BiFunction<String, String, SlotInsight> insights) {
		Optional<Long> current = settings.get(SETTING).flatMap(ServerSettings.Setting::number);
		Optional<KeepSizeServer> server = KeepSizeServer.of(target, fleet);
		if (current.isEmpty() || server.isEmpty()) {
			return;
		}
		String key = server.get().key();
		if (!server.get().actsHere()) {
			this.standing.forget(key);
			return;
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
	}

	// The server's lock in the lead's database: an instance that still believes it owns
	// the lead after losing it waits
	// for the one that does, and reads the record the other wrote.
	private void act(KeepSizeServer server, List<ReplicationSlot> slots, ServerSettings settings, long current,
			BiFunction<String, String, SlotInsight> insights) throws SQLException {
		try (Connection connection = server.lead().primary().connection()) {
			long key = AdvisoryLocks.keepSizeKey(server.key());
			if (!AdvisoryLocks.tryLock(connection, key)) {
				heldElsewhere(connection, server, key);
				return;
			}
			try {
				for (KeepSizeRaise behind : this.leftBehind.find(connection, server.key())) {
					this.leftBehind.putBack(connection, server.lead(), behind);
				}
				// The poll may have read another server: the former primary, switched
				// over since. Acted on here, a raise made there would be put back here
				// and dropped from the record, left in force there (the soak's smoke:
				// 32MB left on the standby). The next poll reads this server.
				if (current != KeepSizeLeftBehind.shownBy(connection)) {
					return;
				}
				KeepSizeRaise raise = this.records.find(connection, server, current);
				this.standing.read(server.key(), raise);
				// A reading from before the raise took effect (shared with another
				// target, or read as the server
				// reloaded) would look like a value someone changed by hand: wait for a
				// later one.
				if (raise != null && !settings.readAt().isAfter(raise.serverAt().plus(RELOADED))) {
					return;
				}
				OutageNeed need = OutageNeed.of(server.policies(), slots, server.insights(insights));
				decide(connection, server, raise, need, slots, current);
			}
			finally {
				AdvisoryLocks.unlock(connection, key);
			}
		}
	}

	private void decide(Connection connection, KeepSizeServer server, KeepSizeRaise raise, OutageNeed need,
			List<ReplicationSlot> slots, long current) throws SQLException {
		Target lead = server.lead();
		String key = (raise != null) ? raise.server() : server.key();
		if (raise != null && current != raise.expectedMegabytes()) {
			if (KeepSizeLeftBehind.madeElsewhere(connection, raise)) {
				this.leftBehind.putBack(connection, lead, raise);
			}
			else {
				this.changes.yieldTo(connection, lead, raise, current);
			}
			return;
		}
		if (raise != null && need.isEmpty() && !raise.stillNeeded(slots)) {
			if (raise.yieldedTo() != null) {
				this.changes.endYielded(connection, lead, raise, current);
				return;
			}
			Set<String> optedIn = server.optedInSlots();
			ReplicationSlot inTheWay = raise.inTheWay(slots, optedIn);
			if (inTheWay != null) {
				String why = "every slot a consumer reads or on-outage protects retains less than "
						+ Math.round(KeepSizeRaise.PUT_BACK_SHARE * 100) + "% of the " + raise.fromMegabytes()
						+ "MB it goes back to (slot " + inTheWay.slotName() + " retains "
						+ inTheWay.retainedWalBytes() / (1024 * 1024) + "MB)";
				if (this.standing.waits(key, inTheWay.slotName(), why)) {
					logger.info("Not yet putting {} back to {}MB although the consumers of {} read again: it waits"
							+ " until {}", SETTING, raise.fromMegabytes(), raise.slots(), why);
				}
				return;
			}
			this.changes.putBack(connection, lead, raise, current, raise.leftToTheLimit(slots, optedIn));
			return;
		}
		this.standing.waitsNot(key);
		if (need.isEmpty()) {
			this.standing.refusedNot(key);
		}
		else if ((raise == null || raise.yieldedTo() == null) && current >= 0 && current < need.capMegabytes()) {
			this.changes.raise(connection, lead, raise, current, need);
		}
	}

	// Another session holds the server's lock: the raise is still read, so that the polls
	// show it, and who holds the
	// lock is said, since a session whose client is gone holds it until the server ends
	// that session.
	private void heldElsewhere(Connection connection, KeepSizeServer server, long key) throws SQLException {
		KeepSizeRaise raise = this.records.read(connection, server.key());
		this.standing.read(server.key(), raise);
		String holder = AdvisoryLocks.holder(connection, key);
		if (raise != null && holder != null
				&& this.standing.waits(server.key(), holder.substring(0, holder.indexOf(" (")),
						"the WAL-limit guard's lock" + " in the database of target '" + server.lead().name()
								+ "' is free (held by " + holder + ")")) {
			logger.info("The WAL-limit guard of server {} waits for its lock, held by {}", server.key(), holder);
		}
	}

}
