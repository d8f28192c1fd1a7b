package io.slotkeeper.heartbeat;

import io.slotkeeper.config.HeartbeatProperties;
import io.slotkeeper.config.StandbySnapshotMode;

/**
 * How much WAL an idle database's slot keeps at least, with a consumer that confirms
 * every heartbeat, and why: it only moves to a running-transactions record decoded while
 * no earlier one was pending (see {@link SnapshotOrder}).
 */
final class WalFloor {

	private static final long BGWRITER_SECONDS = 15;

	private WalFloor() {
	}

	/**
	 * Says the floor for a target's heartbeat.
	 * @param settings the heartbeat's settings
	 * @param snapshot what the standby snapshot last came to, {@code null} before a
	 * session or when off
	 * @return the floor and its reason, for the operator
	 */
	static String describe(HeartbeatProperties settings, String snapshot) {
		long interval = settings.cadence().seconds();
		if (SnapshotOrder.OK.equals(snapshot)) {
			return "about one interval (" + interval + " s) of WAL: each heartbeat is followed, once its consumers"
					+ " confirmed it, by a standby snapshot and a second record, and their confirmation moves the slots"
					+ " to that snapshot";
		}
		String why = (snapshot != null) ? "the standby snapshot is " + snapshot
				: (settings.standbySnapshot() == StandbySnapshotMode.OFF) ? "standby-snapshot is off"
						: "no session yet";
		return "about interval + 15 s, up to " + Math.max(interval + BGWRITER_SECONDS, 2 * interval)
				+ " s of WAL: slots only move to the background writer's running-transactions records (at most every"
				+ " 15 s), and to one only when no earlier one is pending; " + why;
	}

}
