package io.slotkeeper.slot;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.List;

import io.slotkeeper.config.TargetProperties;
import io.slotkeeper.target.TargetSqlException;

/**
 * The steps a slot change is made of, and the checks that refuse one before any step runs.
 */
final class SlotSteps {

	private static final int DROP_ATTEMPTS = 20;

	private static final long DROP_RETRY_MILLIS = 50;

	private static final long STANDBY_CREATE_TIMEOUT_MILLIS = 30_000;

	private static final long NUDGE_EVERY_MILLIS = 250;

	private SlotSteps() {
	}

	static List<Step> release(TargetProperties target, SlotView slot, boolean force) {
		if (!Boolean.TRUE.equals(slot.active())) {
			return List.of();
		}
		if (!force) {
			throw SlotProblem.active(target.name(), slot);
		}
		int pid = slot.activePid();
		return List.of(new Step("terminate backend " + pid + " holding slot " + slot.slotName(),
				(connection) -> SlotRepository.terminate(connection, pid)));
	}

	// The consumer's walsender may take a moment to release a slot after its backend is told to end.
	static Step dropStep(String slot, SlotView current) {
		boolean mayBeReleasing = Boolean.TRUE.equals(current.active());
		return new Step("drop slot " + slot, (connection) -> {
			for (int attempt = 1;; attempt++) {
				try {
					SlotRepository.drop(connection, slot);
					return;
				}
				catch (SQLException ex) {
					if (!mayBeReleasing || !"55006".equals(ex.getSQLState()) || attempt == DROP_ATTEMPTS) {
						throw ex;
					}
					pause();
				}
			}
		});
	}

	static Step createStep(SlotSpec spec, Runnable nudgePrimary) {
		return new Step(spec.describe(), (connection) -> {
			if (nudgePrimary == null || !spec.logical() || !SlotRepository.inRecovery(connection)) {
				SlotRepository.create(connection, spec, SlotRepository.major(connection));
				return;
			}
			createOnStandby(connection, spec, nudgePrimary);
		});
	}

	// The creation blocks until a running-transactions record is replayed: nudge the primary until it returns, and
	// allow it longer than an ordinary statement, since without the nudge it waits for the background writer.
	private static void createOnStandby(Connection connection, SlotSpec spec, Runnable nudgePrimary)
			throws SQLException {
		String usual = currentSetting(connection, "statement_timeout");
		setSetting(connection, "statement_timeout", Long.toString(STANDBY_CREATE_TIMEOUT_MILLIS));
		java.util.concurrent.atomic.AtomicBoolean done = new java.util.concurrent.atomic.AtomicBoolean();
		Thread nudger = new Thread(() -> {
			while (!done.get()) {
				nudgePrimary.run();
				try {
					Thread.sleep(NUDGE_EVERY_MILLIS);
				}
				catch (InterruptedException ex) {
					return;
				}
			}
		}, "standby-snapshot-nudge");
		nudger.setDaemon(true);
		nudger.start();
		try {
			SlotRepository.create(connection, spec, SlotRepository.major(connection));
		}
		finally {
			done.set(true);
			nudger.interrupt();
			setSetting(connection, "statement_timeout", usual);
		}
	}

	private static String currentSetting(Connection connection, String name) throws SQLException {
		try (PreparedStatement statement = connection.prepareStatement("SELECT current_setting(?)")) {
			statement.setString(1, name);
			try (ResultSet result = statement.executeQuery()) {
				result.next();
				return result.getString(1);
			}
		}
	}

	private static void setSetting(Connection connection, String name, String value) throws SQLException {
		try (PreparedStatement statement = connection.prepareStatement("SELECT set_config(?, ?, false)")) {
			statement.setString(1, name);
			statement.setString(2, value);
			statement.execute();
		}
	}


	static void requireSupported(Connection connection, TargetProperties target, SlotSpec spec)
			throws SQLException {
		int major = SlotRepository.major(connection);
		if (spec.logical() && major < 16 && SlotRepository.inRecovery(connection)) {
			throw SlotProblem.unsupported(target.name(), spec.name(), "Logical slots on a standby need PostgreSQL 16"
					+ " or later; this standby is " + major + ". Create the slot on the primary, or upgrade.");
		}
		if (spec.twoPhase() && major < 14) {
			throw SlotProblem.unsupported(target.name(), spec.name(),
					"twoPhase needs PostgreSQL 14 or later; this server is " + major + ".");
		}
		if (spec.failover() && major < 17) {
			throw SlotProblem.unsupported(target.name(), spec.name(),
					"failover needs PostgreSQL 17 or later; this server is " + major + ".");
		}
	}

	static void requireSlotPrivilege(Connection connection, TargetProperties target) throws SQLException {
		try (PreparedStatement statement = connection.prepareStatement(
				"SELECT rolreplication OR rolsuper FROM pg_roles WHERE rolname = current_user");
				ResultSet result = statement.executeQuery()) {
			if (!result.next() || !result.getBoolean(1)) {
				throw TargetSqlException.of(target.name(), target.username(), new SQLException(
						"permission denied to use replication slots: role lacks the REPLICATION attribute", "42501"));
			}
		}
	}

	private static void pause() {
		try {
			Thread.sleep(DROP_RETRY_MILLIS);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException("interrupted while waiting for a slot to be released", ex);
		}
	}

	record Step(String description, SqlAction action) {
	}

	@FunctionalInterface
	interface SqlAction {

		void run(Connection connection) throws SQLException;

	}

}
