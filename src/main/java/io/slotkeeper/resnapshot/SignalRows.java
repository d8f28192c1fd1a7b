package io.slotkeeper.resnapshot;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import tools.jackson.databind.json.JsonMapper;

import io.slotkeeper.fleet.Target;
import io.slotkeeper.lineage.SlotLineage;
import io.slotkeeper.replication.SlotProblems;
import io.slotkeeper.sessions.SqlIdentifiers;
import io.slotkeeper.sessions.TargetProblems;

/**
 * The rows a re-snapshot writes on the target's primary: the privilege check before
 * anything, the {@code execute-snapshot} row in Debezium's signal table (a checked,
 * quoted identifier; the values bound), and what it asked for kept with the slot's
 * lineage.
 */
final class SignalRows {

	private static final Logger logger = LoggerFactory.getLogger(SignalRows.class);

	private static final JsonMapper JSON = JsonMapper.builder().build();

	private SignalRows() {
	}

	// Kept with the slot's lineage, so that the listing of every instance shows what the
	// epoch's re-snapshot read.
	static Resnapshot remember(Connection connection, Target target, String slot, Resnapshot sent, List<String> skipped,
			Instant at) {
		SlotLineage.Resnapshotted kept = new SlotLineage.Resnapshotted((sent.sentAt() != null) ? sent.sentAt() : at,
				(sent.signalId() != null) ? sent.collections() : List.of(), skipped);
		try {
			target.lineages().resnapshotted(connection, slot, kept);
		}
		catch (SQLException ex) {
			logger.debug("The re-snapshot of slot '{}' is kept in this instance's memory: {}", slot, ex.getMessage());
		}
		return sent;
	}

	// Checked before anything is written: a missing table or privilege is said, and
	// nothing is inserted.
	static void mayInsert(Connection connection, Target target, String slot, String table) throws SQLException {
		try (PreparedStatement check = connection
			.prepareStatement("SELECT t IS NOT NULL, t IS NOT NULL AND" + " pg_catalog.has_table_privilege(t, 'INSERT')"
					+ " FROM (SELECT pg_catalog.to_regclass(?) AS t) AS signal_table")) {
			check.setString(1, table);
			try (ResultSet result = check.executeQuery()) {
				result.next();
				if (!result.getBoolean(1)) {
					throw SlotProblems.unsupported(target.primary(), slot,
							"No re-snapshot signal: the signal table " + table + " does not exist.");
				}
				if (!result.getBoolean(2)) {
					throw TargetProblems
						.insufficientPrivilege(target.primary(),
								"permission denied to insert into the" + " signal table " + table + ": GRANT INSERT ON "
										+ table + " TO the role" + " slot-keeper logs in as")
						.with("slot", slot)
						.with("sqlState", "42501");
				}
			}
		}
	}

	// One execute-snapshot row; conditions narrow a table's reads (Debezium's
	// additional-conditions).
	static Resnapshot insert(Connection connection, Target target, String slot, Signal signal, List<String> tables,
			TableChoice choice, Map<String, String> conditions, Instant at) throws SQLException {
		return insert(connection, target, slot, signal, tables, choice, List.of(data(signal, tables, conditions)), at);
	}

	// One signal row per data in one transaction, in order: Debezium reads them in the
	// order they were committed, and queues each one's tables with its conditions. The
	// table is the application's, not slot-keeper's: whatever code it would run on an
	// insert would run as slot-keeper's role, so the insert is refused unless the
	// table is on SignalTableCheck's allow-list, checked under a lock that keeps
	// anything from being added until the rows are in.
	static Resnapshot insert(Connection connection, Target target, String slot, Signal signal, List<String> tables,
			TableChoice choice, List<Map<String, Object>> signals, Instant at) throws SQLException {
		List<String> ids = insert(connection, target, slot, signal, signals, List.of());
		return new Resnapshot(ids.get(0), tables, at, null, choice);
	}

	/**
	 * Signal rows in one transaction, in order: the {@code execute-snapshot} rows first,
	 * then the rows of another type (a gap's deletes), so that Debezium queues the reads
	 * before it emits the deletes.
	 * @param connection a session on the primary
	 * @param target the target
	 * @param slot the slot
	 * @param signal the signal's type and table
	 * @param reads the data of each {@code execute-snapshot} row
	 * @param others the type and data of each further row
	 * @return the ids of the rows, in order
	 * @throws SQLException when they cannot be inserted
	 */
	static List<String> insert(Connection connection, Target target, String slot, Signal signal,
			List<Map<String, Object>> reads, List<Map.Entry<String, Map<String, Object>>> others) throws SQLException {
		List<Map.Entry<String, Map<String, Object>>> rows = new ArrayList<>();
		reads.forEach((data) -> rows.add(Map.entry("execute-snapshot", data)));
		rows.addAll(others);
		List<String> ids = new ArrayList<>();
		String table = SqlIdentifiers.quoteQualified(signal.table());
		boolean autoCommit = connection.getAutoCommit();
		connection.setAutoCommit(false);
		try (Statement statement = connection.createStatement()) {
			statement.execute("SELECT pg_catalog.set_config('lock_timeout', '5s', true)");
			statement.execute("LOCK TABLE " + table + " IN ROW EXCLUSIVE MODE");
			String refused = SignalTableCheck.refusal(connection, signal.table());
			if (refused != null) {
				throw SlotProblems.unsupported(target.primary(), slot, "No re-snapshot signal: the signal table "
						+ signal.table() + " " + refused + ". slot-keeper inserts only into a plain table of Debezium's"
						+ " signal columns (id, type, data) of text types, with no default, domain, trigger, rule,"
						+ " policy, inheritance or constraint but NOT NULL, primary key and unique, so that nothing"
						+ " of the table's owner would run as slot-keeper's role (make the table so, or insert the"
						+ " signal yourself).");
			}
			try (PreparedStatement insert = connection
				.prepareStatement("INSERT INTO " + table + " (id, type, data) VALUES (?, ?, ?)")) {
				for (Map.Entry<String, Map<String, Object>> row : rows) {
					String id = UUID.randomUUID().toString();
					insert.setString(1, id);
					insert.setString(2, row.getKey());
					insert.setString(3, JSON.writeValueAsString(row.getValue()));
					insert.executeUpdate();
					ids.add(id);
				}
			}
			connection.commit();
		}
		finally {
			if (!connection.getAutoCommit()) {
				connection.rollback();
				connection.setAutoCommit(autoCommit);
			}
		}
		return ids;
	}

	/**
	 * The data of one {@code execute-snapshot} signal.
	 * @param signal the signal's type and table
	 * @param tables the tables it reads
	 * @param conditions the filter of each table read by a condition
	 * @return the data, as Debezium reads it
	 */
	static Map<String, Object> data(Signal signal, List<String> tables, Map<String, String> conditions) {
		Map<String, Object> data = new LinkedHashMap<>();
		data.put("data-collections", tables);
		data.put("type", signal.type());
		if (!conditions.isEmpty()) {
			data.put("additional-conditions", conditions.entrySet()
				.stream()
				.map((condition) -> Map.of("data-collection", condition.getKey(), "filter", condition.getValue()))
				.toList());
		}
		return data;
	}

}
