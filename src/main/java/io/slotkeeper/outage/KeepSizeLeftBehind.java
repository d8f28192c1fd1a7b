package io.slotkeeper.outage;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.slotkeeper.audit.Auditor;
import io.slotkeeper.fleet.Target;
import io.slotkeeper.sessions.Node;
import io.slotkeeper.sessions.ServerIdentity;

import static io.slotkeeper.outage.KeepSizeGuard.ACTION;
import static io.slotkeeper.outage.KeepSizeGuard.SETTING;

/**
 * A raise left on a former primary: {@code ALTER SYSTEM} wrote it into that server's own
 * {@code postgresql.auto.conf}, which is not replicated, so after a switchover or
 * failover the raised value stays with it, now a standby, and would be its limit again
 * once it takes over. The raise was recorded under that server's key
 * ({@link KeepSizeServer#keyOf}, its address), which the new primary does not answer to.
 * It is put back there, on the configured replica that is that server and still shows the
 * raised value (one that shows another value is an operator's, left as it is). Until a
 * replica is that server the record stays, tried at every poll, and what to run there is
 * said once. The new primary's value is its own: the guard raises it anew where its slots
 * need the room.
 */
final class KeepSizeLeftBehind {

	private static final Logger logger = LoggerFactory.getLogger(KeepSizeLeftBehind.class);

	private static final String READ = "SELECT setting::bigint FROM pg_catalog.pg_settings WHERE name = ?";

	private final Auditor auditor;

	private final KeepSizeRecords records;

	private final Set<String> warned = ConcurrentHashMap.newKeySet();

	KeepSizeLeftBehind(Auditor auditor, KeepSizeRecords records) {
		this.auditor = auditor;
		this.records = records;
	}

	/**
	 * The raises recorded in this database for other servers than {@code server}: a
	 * server's key is its primary's address, so these were made on a former primary of
	 * the same cluster, before a switchover or failover (a database is on one cluster,
	 * and its copy of the table on every node of it).
	 * @param connection a session in the lead target's database
	 * @param server the key of the server the lead is on now
	 * @return the raises, none where the table is missing or not slot-keeper's
	 * @throws SQLException when the table cannot be read
	 */
	List<KeepSizeRaise> find(Connection connection, String server) throws SQLException {
		if (!this.records.trusted(connection, server)) {
			return List.of();
		}
		List<String> others = new ArrayList<>();
		try (PreparedStatement select = connection
			.prepareStatement("SELECT server FROM " + KeepSizeRecords.TABLE + " WHERE server <> ?")) {
			select.setString(1, server);
			try (ResultSet row = select.executeQuery()) {
				while (row.next()) {
					others.add(row.getString(1));
				}
			}
		}
		List<KeepSizeRaise> raises = new ArrayList<>();
		for (String other : others) {
			KeepSizeRaise raise = this.records.read(connection, other);
			if (raise != null) {
				raises.add(raise);
			}
		}
		return raises;
	}

	/**
	 * Whether the raise was made on another server than the one this session is on: the
	 * lead's cached identity may still name the former primary for a moment after a
	 * switchover, when its value would look like an operator's.
	 * @param connection a session on the lead's primary
	 * @param raise the raise found
	 * @return whether it was made elsewhere
	 * @throws SQLException when the server cannot be asked
	 */
	static boolean madeElsewhere(Connection connection, KeepSizeRaise raise) throws SQLException {
		try (Statement statement = connection.createStatement();
				ResultSet here = statement.executeQuery("SELECT pg_catalog.inet_server_addr()::pg_catalog.text || ':'"
						+ " || pg_catalog.inet_server_port()")) {
			String server = here.next() ? here.getString(1) : null;
			return server != null && !server.equals(serverOf(raise));
		}
	}

	private static String serverOf(KeepSizeRaise raise) {
		return raise.server().substring(0, Math.max(0, raise.server().lastIndexOf('/')));
	}

	void putBack(Connection connection, Target lead, KeepSizeRaise raise) throws SQLException {
		String server = serverOf(raise);
		for (Node replica : lead.nodes().select(Target.ALL_NODES)) {
			Found found = replica.primary() ? Found.NOT_THERE : putBack(replica, server, raise);
			if (found != Found.NOT_THERE) {
				this.records.delete(connection, raise.server());
				this.warned.remove(raise.server());
				String detail = (found == Found.PUT_BACK)
						? "put back on replica " + replica.name() + ", the former primary the raise was made on: "
								+ raise.restore()
						: "replica " + replica.name() + ", the former primary the raise was made on, no longer shows"
								+ " the raised " + raise.expectedMegabytes() + "MB: its value is left as it is";
				logger.info("{} on {}: {}", SETTING, server, detail);
				this.auditor.recordOutcome(
						Auditor.SELF, ACTION, lead.name(), raise.slots().get(0), Auditor.parameters("server", server,
								"to", raise.fromMegabytes() + "MB", "slots", raise.slots()),
						new Auditor.Summary("done", 200, detail, Map.of(), null));
				return;
			}
		}
		// The former primary may be down for a while yet: kept, and tried at every poll,
		// said once.
		if (this.warned.add(raise.server())) {
			String left = "the raise to " + raise.expectedMegabytes() + "MB was made on " + server + ", no longer the"
					+ " primary, and no configured replica is that server now: put back there once it is one, or run "
					+ raise.restore() + " and SELECT pg_reload_conf() there";
			logger.warn("{}: {}", SETTING, left);
			this.auditor.recordRefusal(Auditor.SELF, ACTION, lead.name(), raise.slots().get(0), left);
		}
	}

	// Only on the server the raise was made on, and only where the raised value still
	// stands: a value set there since
	// is an operator's.
	private Found putBack(Node replica, String server, KeepSizeRaise raise) {
		try (Connection connection = replica.connection()) {
			long current = shownBy(connection);
			ServerIdentity identity = replica.identity();
			if (identity == null || !server.equals(identity.address() + ":" + identity.port())) {
				return Found.NOT_THERE;
			}
			if (current != raise.expectedMegabytes()) {
				return Found.CHANGED;
			}
			try (Statement statement = connection.createStatement()) {
				statement.execute(raise.restore());
				statement.execute("SELECT pg_catalog.pg_reload_conf()");
			}
			return Found.PUT_BACK;
		}
		catch (SQLException ex) {
			return Found.NOT_THERE;
		}
	}

	/**
	 * The server's {@code max_slot_wal_keep_size} in megabytes, as the session's server
	 * shows it now.
	 * @param connection a session on the server
	 * @return the value, -1 for no limit or when the server lacks the setting
	 * @throws SQLException when the server cannot be asked
	 */
	static long shownBy(Connection connection) throws SQLException {
		try (PreparedStatement read = connection.prepareStatement(READ)) {
			read.setString(1, SETTING);
			try (ResultSet value = read.executeQuery()) {
				return value.next() ? value.getLong(1) : -1;
			}
		}
	}

	private enum Found {

		PUT_BACK, CHANGED, NOT_THERE

	}

}
