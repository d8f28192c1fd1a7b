package io.slotkeeper.slot.changing;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.List;

import io.slotkeeper.problem.ProblemException;
import io.slotkeeper.replication.ReplicationSlot;
import io.slotkeeper.sessions.AdvisoryLocks;
import io.slotkeeper.sessions.Node;
import io.slotkeeper.slot.changing.Step;

/**
 * Runs a planned change on a node under the target's change lock: either answers the plan
 * (a dry run, refusals included) or runs its steps and reads the result, on the same
 * connection, so that nothing changes between the plan and the steps.
 */
final class ChangeRunner {

	private ChangeRunner() {
	}

	static ChangePlan dryRun(Node node, String action, String slot, Planner planner) {
		return node.withConnection((connection) -> locked(connection, node, () -> {
			try {
				List<String> steps = planner.plan(connection).steps().stream().map(Step::description).toList();
				return new ChangePlan(action, node.target(), slot, steps, null);
			}
			catch (ProblemException problem) {
				if (!problem.kind().refusal()) {
					throw problem;
				}
				return new ChangePlan(action, node.target(), slot, List.of(), problem);
			}
		}));
	}

	static <T> T apply(Node node, Planner planner, After<T> after) {
		return node.withConnection((connection) -> locked(connection, node, () -> {
			Plan plan = planner.plan(connection);
			for (Step step : plan.steps()) {
				step.action().run(connection);
			}
			return after.apply(connection, plan.before());
		}));
	}

	private static <T> T locked(Connection connection, Node node, Locked<T> work) throws SQLException {
		long key = AdvisoryLocks.changeKey(node.target());
		AdvisoryLocks.lock(connection, key);
		try {
			return work.run();
		}
		finally {
			AdvisoryLocks.unlock(connection, key);
		}
	}

	/**
	 * The steps a change would run and the slot as it was before, {@code null} for a
	 * create.
	 */
	record Plan(List<Step> steps, ReplicationSlot before) {
	}

	@FunctionalInterface
	interface Planner {

		Plan plan(Connection connection) throws SQLException;

	}

	@FunctionalInterface
	interface After<T> {

		T apply(Connection connection, ReplicationSlot before) throws SQLException;

	}

	@FunctionalInterface
	private interface Locked<T> {

		T run() throws SQLException;

	}

}
