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

	static final int DROP_ATTEMPTS = 20;

	static final long DROP_RETRY_MILLIS = 50;

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

	static Step createStep(SlotSpec spec) {
		return new Step(spec.describe(),
				(connection) -> SlotRepository.create(connection, spec, SlotRepository.major(connection)));
	}

	static void requireSupported(Connection connection, TargetProperties target, SlotSpec spec)
			throws SQLException {
		int major = SlotRepository.major(connection);
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
