package io.slotkeeper.healing;

import java.sql.Connection;
import java.sql.SQLException;
import java.time.Instant;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.slotkeeper.fleet.Target;
import io.slotkeeper.sessions.FailureDescription;
import io.slotkeeper.sessions.SqlWork;
import io.slotkeeper.sessions.TargetProblems;

/**
 * The heal attempts of the last hour per slot, kept in the target's own database (table
 * {@code slotkeeper.heals}, in a schema of slot-keeper's own, with a primary key so that
 * a {@code FOR ALL TABLES} publication allows its {@code DELETE}): the one store that
 * every instance, the next owner after a failover of the pod or a restart among them,
 * reaches, and that lives exactly as long as the slots it counts. An attempt that cannot
 * be written there is counted in this instance's memory and the {@code slots} health says
 * why; where the role may not keep the table at all (no privilege, a read-only server, a
 * table or schema another role made first), it stays in memory.
 */
final class HealLedger {

	static final String TABLE = HealTable.TABLE;

	private static final Logger logger = LoggerFactory.getLogger(HealLedger.class);

	private final RecreationBudget memory = new RecreationBudget();

	private final Map<String, String> inMemoryBecause = new ConcurrentHashMap<>();

	private final Map<String, String> failedBecause = new ConcurrentHashMap<>();

	private final Map<String, Boolean> tableReady = new ConcurrentHashMap<>();

	private final boolean database;

	private HealLedger(boolean database) {
		this.database = database;
	}

	/**
	 * The ledger the application uses: in each target's database, in memory where that is
	 * refused.
	 * @return the ledger
	 */
	static HealLedger inTargets() {
		return new HealLedger(true);
	}

	/**
	 * A ledger that never touches a database, for decisions tested without one.
	 * @return the ledger
	 */
	static HealLedger inMemory() {
		return new HealLedger(false);
	}

	/**
	 * The attempts to heal a slot within the hour before {@code now}, in the database and
	 * in memory.
	 * @param target the target
	 * @param slot the slot's name
	 * @param now the time
	 * @return how many
	 */
	int attempts(Target target, String slot, Instant now) {
		int remembered = this.memory.used(target.name() + "/" + slot, now);
		if (!ready(target)) {
			return remembered;
		}
		try {
			return remembered + onPrimary(target, (connection) -> HealTable.count(connection, slot, now));
		}
		catch (SQLException ex) {
			unusable(target, ex);
			return remembered;
		}
	}

	/**
	 * Records an attempt.
	 * @param target the target
	 * @param slot the slot's name
	 * @param at when
	 * @param succeeded whether the slot was recreated
	 */
	void record(Target target, String slot, Instant at, boolean succeeded) {
		if (ready(target)) {
			try {
				onPrimary(target, (connection) -> HealTable.insert(connection, slot, at, succeeded));
				this.failedBecause.remove(target.name());
				return;
			}
			catch (SQLException ex) {
				unusable(target, ex);
			}
		}
		this.memory.spend(target.name() + "/" + slot, at);
	}

	/**
	 * Where a target's heal attempts are counted, for the {@code slots} health.
	 * @param target the target's name
	 * @return why they are in memory, {@code null} while they are in the database (or
	 * nothing was healed yet)
	 */
	String inMemoryBecause(String target) {
		String refused = this.inMemoryBecause.get(target);
		return (refused != null) ? refused : this.failedBecause.get(target);
	}

	/**
	 * Why a target's heal attempts can never be kept in its database (no privilege, a
	 * table another role made), as opposed to a write that failed once and is tried
	 * again.
	 * @param target the target's name
	 * @return the reason, {@code null} while the table is usable
	 */
	String refusedBecause(String target) {
		return this.inMemoryBecause.get(target);
	}

	private boolean ready(Target target) {
		if (!this.database || this.inMemoryBecause.containsKey(target.name())) {
			return false;
		}
		if (this.tableReady.containsKey(target.name())) {
			return true;
		}
		try {
			onPrimary(target, (connection) -> {
				HealTable.create(connection);
				return null;
			});
			this.tableReady.put(target.name(), true);
			return true;
		}
		catch (SQLException ex) {
			unusable(target, ex);
			return false;
		}
	}

	private static <T> T onPrimary(Target target, SqlWork<T> work) throws SQLException {
		try (Connection connection = target.primary().connection()) {
			return work.apply(connection);
		}
	}

	// A refusal (no privilege, a table another role made) stands; any other failure (an
	// outage, a primary that is a
	// standby for a while) is said until the next write succeeds, and the table is tried
	// again next time.
	private void unusable(Target target, SQLException failure) {
		String state = String.valueOf(failure.getSQLState());
		String message = FailureDescription.messageOf(failure);
		String grant = TargetProblems.grantFor(message, target.primary().username());
		String reason = message + " (SQLState " + state + ")" + ((grant != null) ? "; it needs " + grant : "");
		if (state.startsWith("42")) {
			keepInMemory(target, reason);
		}
		else if (this.failedBecause.put(target.name(), "heal attempts since the last failure are counted in this"
				+ " instance's memory only: writing " + TABLE + " failed: " + reason) == null) {
			logger.warn("Heal attempts of target '{}' could not be written to {}, counted in memory: {}", target.name(),
					TABLE, reason);
		}
	}

	private void keepInMemory(Target target, String reason) {
		if (this.inMemoryBecause.putIfAbsent(target.name(), "heal attempts are counted in this instance's memory only"
				+ " (a restart or a new owner starts from zero): " + TABLE + " is not usable: " + reason) == null) {
			logger.warn("Heal attempts of target '{}' are counted in memory only: {} is not usable: {}", target.name(),
					TABLE, reason);
		}
	}

}
