package io.slotkeeper.replication;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

import io.slotkeeper.settings.ServerSettings;

/**
 * One poll's reading of a node, on one connection: the slots, the database the session is
 * in, the walsenders' commands and the server's settings for the audit.
 *
 * @param slots every slot of the server
 * @param database the database the target connects to
 * @param walsenderCommands the last command of each walsender, by process
 * @param settings the server's settings the audit judges
 */
public record SlotPoll(List<ReplicationSlot> slots, String database, Map<Integer, String> walsenderCommands,
		ServerSettings settings) {

	/**
	 * The part of a server's reading that is one database's: its logical slots, as if
	 * read from it ({@code pg_replication_slots} is one view for the whole server, read
	 * once and dealt to its databases).
	 * @param database the database
	 * @return the reading
	 */
	public SlotPoll dealtTo(String database) {
		return new SlotPoll(this.slots.stream().filter((slot) -> slot.in(database)).toList(), database,
				this.walsenderCommands, this.settings);
	}

	/**
	 * The whole reading as a session in another database of the same server would have
	 * read it.
	 * @param database the database
	 * @return the reading
	 */
	public SlotPoll in(String database) {
		return new SlotPoll(this.slots, database, this.walsenderCommands, this.settings);
	}

	/**
	 * What a poll reads, on one connection: the slots, the database the session is in,
	 * the walsenders' commands and the server's settings for the audit.
	 * @param connection a connection to the node
	 * @return the poll
	 * @throws SQLException when the server refuses
	 */
	public static SlotPoll read(Connection connection) throws SQLException {
		List<ReplicationSlot> slots = SlotRepository.list(connection);
		return new SlotPoll(slots, SlotRepository.currentDatabase(connection), walsenderCommands(connection, slots),
				ServerSettings.read(connection));
	}

	// For a logical consumer the command is its START_REPLICATION with the options it
	// asked for. Other roles'
	// sessions show only to a superuser or a member of pg_read_all_stats. Only the
	// consumers of slots matter, and
	// pg_stat_activity copies every backend's status: a server without one is not asked.
	private static Map<Integer, String> walsenderCommands(Connection connection, List<ReplicationSlot> slots)
			throws SQLException {
		Integer[] consumers = slots.stream()
			.map(ReplicationSlot::activePid)
			.filter(Objects::nonNull)
			.distinct()
			.toArray(Integer[]::new);
		Map<Integer, String> commands = new HashMap<>();
		if (consumers.length == 0) {
			return commands;
		}
		try (PreparedStatement statement = connection.prepareStatement("SELECT pid, query FROM"
				+ " pg_catalog.pg_stat_activity WHERE backend_type = 'walsender' AND pid = ANY (?)")) {
			statement.setArray(1, connection.createArrayOf("int4", consumers));
			try (ResultSet row = statement.executeQuery()) {
				while (row.next()) {
					commands.put(row.getInt(1), row.getString(2));
				}
			}
		}
		return commands;
	}

}
