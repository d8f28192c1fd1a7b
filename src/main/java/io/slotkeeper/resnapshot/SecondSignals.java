package io.slotkeeper.resnapshot;

import java.sql.Connection;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import io.slotkeeper.fleet.Target;
import io.slotkeeper.lineage.SlotLineage;
import io.slotkeeper.lineage.TableWrites;

/**
 * The second signal after a recreate's re-snapshot of only the changed tables: the tables
 * it skipped whose write counters moved by the recheck (commits the server counted late,
 * or written since), kept with the slot's lineage.
 */
final class SecondSignals {

	private SecondSignals() {
	}

	/**
	 * Reads the skipped tables again and signals those whose counters moved.
	 * @param connection a session on the primary
	 * @param target the target
	 * @param recheck the recheck due
	 * @param signal the slot's signal
	 * @param at when it is sent
	 * @return the second signal, {@code null} when no table moved
	 * @throws SQLException when the server refuses
	 */
	static Resnapshot send(Connection connection, Target target, ChangedTables.Recheck recheck, Signal signal,
			Instant at) throws SQLException {
		TableWrites now = TableWrites.read(connection, recheck.tables());
		List<String> moved = recheck.tables()
			.stream()
			.filter((table) -> now.movedSince(recheck.sent(), table))
			.toList();
		if (moved.isEmpty()) {
			return null;
		}
		SignalRows.mayInsert(connection, target, recheck.slot(), signal.table());
		TableChoice why = new TableChoice(
				"tables skipped by the signal after the recreate whose write counters moved" + " since "
						+ recheck.sent().at() + ": commits the server counted late, or written since",
				List.of(), Map.of(), Map.of());
		Resnapshot again = SignalRows.insert(connection, target, recheck.slot(), signal, moved, why, Map.of(), at);
		SlotLineage.Resnapshotted first = target.lineages().of(recheck.slot()).resnapshot();
		List<String> read = new ArrayList<>((first != null) ? first.read() : List.of());
		read.addAll(moved);
		SignalRows.remember(connection, target, recheck.slot(),
				new Resnapshot(again.signalId(), read, again.sentAt(), null, null),
				recheck.tables().stream().filter((table) -> !moved.contains(table)).toList(), at);
		return again;
	}

}
