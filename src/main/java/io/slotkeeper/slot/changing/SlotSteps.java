package io.slotkeeper.slot.changing;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.List;
import java.util.OptionalInt;
import java.util.concurrent.atomic.AtomicBoolean;

import io.slotkeeper.fleet.StandbySnapshots;
import io.slotkeeper.fleet.Target;
import io.slotkeeper.handover.Handover;
import io.slotkeeper.replication.SlotRepository;
import io.slotkeeper.sessions.Node;

/**
 * The steps a slot change is made of, each with the description a dry run shows.
 */
final class SlotSteps {

	private static final int DROP_ATTEMPTS = 20;

	private static final long DROP_RETRY_MILLIS = 50;

	private static final long STANDBY_CREATE_TIMEOUT_MILLIS = 30_000;

	private static final long NUDGE_EVERY_MILLIS = 250;

	private SlotSteps() {
	}

	static Step terminate(int pid, String slot) {
		return new Step("terminate backend " + pid + " holding slot " + slot,
				(connection) -> SlotStatements.terminate(connection, slot, pid));
	}

	static Step alterFailover(Node node, String slot, boolean failover) {
		return new Step("ALTER_REPLICATION_SLOT " + slot + " (FAILOVER " + failover + ") over a replication connection",
				(connection) -> SlotStatements.alterFailover(node, slot, failover));
	}

	// The connector is stopped under the change lock, once the change is sure to run;
	// what follows the create runs
	// after the lock is released, since waiting for the connector to run may take a
	// while.
	static List<Step> connectorBefore(Handover handover) {
		if (handover == null || handover.describe().size() < 2) {
			return List.of();
		}
		return List.of(new Step(handover.describe().get(0), (connection) -> handover.readAndStop()));
	}

	static List<Step> connectorAfter(Handover handover) {
		if (handover == null) {
			return List.of();
		}
		List<String> described = handover.describe();
		return List.of(nothing(described.get(described.size() - 1)));
	}

	static Step nothing(String why) {
		return new Step(why, (connection) -> {
		});
	}

	// The consumer's walsender may take a moment to release a slot after its backend is
	// told to end.
	static Step drop(String slot, OptionalInt endedHolder) {
		return drop(slot, endedHolder, null);
	}

	/**
	 * Drops a lost slot only while it is still lost: when another session made the slot
	 * anew since it was read (a second healer such as Patroni), it is left alone and the
	 * create that would follow is skipped.
	 */
	static Step dropLost(String slot, Replacement replacement) {
		return drop(slot, OptionalInt.empty(), replacement);
	}

	private static Step drop(String slot, OptionalInt endedHolder, Replacement replacement) {
		boolean mayBeReleasing = endedHolder.isPresent();
		return new Step("drop slot " + slot + ((replacement != null) ? " while it is still lost" : ""),
				(connection) -> {
					for (int attempt = 1;; attempt++) {
						try {
							if (replacement == null) {
								SlotStatements.drop(connection, slot);
							}
							else if (!SlotStatements.dropIfLost(connection, slot)
									&& SlotRepository.find(connection, slot).isPresent()) {
								replacement.found();
							}
							return;
						}
						catch (SQLException ex) {
							if (!mayBeReleasing || !"55006".equals(ex.getSQLState()) || attempt == DROP_ATTEMPTS) {
								throw ex;
							}
							if (!pause(DROP_RETRY_MILLIS)) {
								throw ex;
							}
						}
					}
				});
	}

	// On a standby, a logical slot is created only once the primary logs a
	// running-transactions record: asking the
	// primary for one (PostgreSQL 16+, superuser or GRANT) spares waiting up to 15 s for
	// the background writer's.
	static Runnable nudge(Target target, Node node) {
		if (node.primary()) {
			return null;
		}
		return () -> {
			try (Connection connection = target.primary().connection()) {
				StandbySnapshots.log(connection);
			}
			catch (SQLException ex) {
				// Not allowed or not available: the standby then waits for the primary's
				// own snapshot.
			}
		};
	}

	static Step create(SlotSpec spec, Runnable nudgePrimary) {
		return create(spec, nudgePrimary, null);
	}

	static Step create(SlotSpec spec, Runnable nudgePrimary, Replacement replacement) {
		return new Step(spec.describe(), (connection) -> {
			if (replacement != null && replacement.made()) {
				return;
			}
			if (nudgePrimary == null || !spec.logical() || !SlotRepository.inRecovery(connection)) {
				SlotStatements.create(connection, spec, SlotRepository.major(connection));
				return;
			}
			createOnStandby(connection, spec, nudgePrimary);
		});
	}

	// The creation blocks until a running-transactions record is replayed: nudge the
	// primary until it returns, and
	// allow it longer than an ordinary statement, since without the nudge it waits for
	// the background writer.
	private static void createOnStandby(Connection connection, SlotSpec spec, Runnable nudgePrimary)
			throws SQLException {
		String usual = SlotStatements.currentSetting(connection, "statement_timeout");
		int usualNetwork = connection.getNetworkTimeout();
		SlotStatements.setSetting(connection, "statement_timeout", Long.toString(STANDBY_CREATE_TIMEOUT_MILLIS));
		// The client must outwait the server, or it gives up while the server may still
		// create the slot.
		connection.setNetworkTimeout(Runnable::run, Math.toIntExact(STANDBY_CREATE_TIMEOUT_MILLIS + 2000));
		AtomicBoolean done = new AtomicBoolean();
		Thread nudger = new Thread(() -> {
			while (!done.get()) {
				nudgePrimary.run();
				if (!pause(NUDGE_EVERY_MILLIS)) {
					return;
				}
			}
		}, "standby-snapshot-nudge");
		nudger.setDaemon(true);
		nudger.start();
		SQLException failure = null;
		try {
			SlotStatements.create(connection, spec, SlotRepository.major(connection));
		}
		catch (SQLException ex) {
			failure = ex;
			throw ex;
		}
		finally {
			done.set(true);
			nudger.interrupt();
			restore(connection, usual, usualNetwork, failure);
		}
	}

	// A clean-up error must not hide why the creation failed: it is attached to that
	// failure instead.
	private static void restore(Connection connection, String statementTimeout, int networkTimeout,
			SQLException failure) throws SQLException {
		try {
			SlotStatements.setSetting(connection, "statement_timeout", statementTimeout);
			connection.setNetworkTimeout(Runnable::run, networkTimeout);
		}
		catch (SQLException cleanup) {
			if (failure == null) {
				throw cleanup;
			}
			failure.addSuppressed(cleanup);
		}
	}

	private static boolean pause(long millis) {
		try {
			Thread.sleep(millis);
			return true;
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			return false;
		}
	}

}
