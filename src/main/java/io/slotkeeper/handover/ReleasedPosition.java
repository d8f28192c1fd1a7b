package io.slotkeeper.handover;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.slotkeeper.sessions.Lsn;

/**
 * Where a connector is aligned to once it is stopped: the slot's confirmed position after
 * the stopped task let go of it, or the position kept when that is later.
 */
public final class ReleasedPosition {

	private static final Logger logger = LoggerFactory.getLogger(ReleasedPosition.class);

	private static final int RELEASE_CHECKS = 50;

	private ReleasedPosition() {
	}

	// The slot may have moved on since it was read: a worker that came back runs its
	// connector from the stale offset,
	// and the server streams (and the task confirms) from the slot's start instead.
	// Debezium fails a task whose offset
	// is behind the slot's confirmed position, so the offsets go to the later of the two;
	// the re-snapshot covers what
	// lies between.
	public static Long read(Connection connection, String slot, Long kept) {
		try (PreparedStatement statement = connection.prepareStatement("SELECT active, confirmed_flush_lsn::text FROM"
				+ " pg_catalog.pg_replication_slots WHERE slot_name = ?")) {
			statement.setString(1, slot);
			// A stopped task lets go of the slot a moment after Connect says STOPPED,
			// confirming what it read last.
			for (int attempt = 0; attempt < RELEASE_CHECKS; attempt++) {
				try (ResultSet row = statement.executeQuery()) {
					if (!row.next() || row.getString(2) == null) {
						return kept;
					}
					if (!row.getBoolean(1) || attempt == RELEASE_CHECKS - 1) {
						long now = Lsn.parse(row.getString(2));
						return (kept == null) ? now : Math.max(kept, now);
					}
				}
				Thread.sleep(100);
			}
			return kept;
		}
		catch (SQLException ex) {
			logger.warn(
					"The position of slot '{}' could not be read ({}): its connector is aligned to the position kept",
					slot, ex.getSQLState());
			return kept;
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			return kept;
		}
	}

}
