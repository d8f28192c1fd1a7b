package io.slotkeeper.testbed;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.Map;

/**
 * A PostgreSQL 17+ primary and its slot-synchronizing standby behind two addresses, as
 * the Services of an operated cluster front them: {@link #host()}/{@link #port()} lead to
 * the primary of the moment, {@link #standbyPort()} to the standby. The primary's
 * failover slots wait for the standby ({@code synchronized_standby_slots}), so what their
 * consumers confirmed survives a switch. {@link #switchOver()} is the facts page's clean
 * switchover and the way back to two nodes: a checkpoint, the primary stopped, the
 * standby promoted, the primary's address moved and its connections dropped, then the
 * former primary started again as the new primary's standby (no rewind: its last record
 * is the shutdown checkpoint the standby received), keeping what it had, its slots
 * included.
 * <p>
 * Everything else ({@link #stop()}, {@link #start()}, statements) acts on the primary of
 * the moment, through its address.
 */
public final class ReplicatedServer implements PostgresServer {

	/**
	 * The physical slot the standby streams through, and the one entry of
	 * {@code synchronized_standby_slots}.
	 */
	public static final String STANDBY_SLOT = "standby";

	private final List<EmbeddedPostgresServer> nodes;

	private final TcpProxy primaryService;

	private final TcpProxy standbyService;

	private volatile int primary;

	private volatile int switchovers;

	/**
	 * Starts a primary and its standby, then sets what {@code systemSettings} lists with
	 * ALTER SYSTEM on both (in {@code postgresql.auto.conf}, as an operator sets it, so
	 * that it holds whichever is the primary).
	 * @param systemSettings settings for {@code postgresql.auto.conf}, such as
	 * {@code max_slot_wal_keep_size}
	 */
	public ReplicatedServer(Map<String, String> systemSettings) {
		if (!(PostgresTestBed.dedicated(Map.of()) instanceof EmbeddedPostgresServer first)) {
			throw new UnsupportedOperationException("a replicated server needs the embedded backend");
		}
		if (first.majorVersion() < 17) {
			first.close();
			throw new UnsupportedOperationException("failover slots need PostgreSQL 17 or later");
		}
		// The settings come after the base backup: its segment switch and checkpoint
		// would invalidate the standby's
		// new slot under a max_slot_wal_keep_size below one segment.
		EmbeddedPostgresServer second = Standby.of(first, first.dataDirectory(), true, STANDBY_SLOT);
		waitForTheStandby(first);
		this.nodes = List.of(first, second);
		for (EmbeddedPostgresServer node : this.nodes) {
			systemSettings
				.forEach((name, value) -> node.execute("postgres", "ALTER SYSTEM SET " + name + " = '" + value + "'"));
			node.execute("postgres", "SELECT pg_reload_conf()");
		}
		this.primaryService = new TcpProxy(first.host(), first.port());
		this.standbyService = new TcpProxy(second.host(), second.port());
	}

	/**
	 * The primary of the moment, reached directly.
	 * @return it
	 */
	public PostgresServer primary() {
		return this.nodes.get(this.primary);
	}

	/**
	 * The standby of the moment, reached directly.
	 * @return it
	 */
	public PostgresServer currentStandby() {
		return this.nodes.get(1 - this.primary);
	}

	/**
	 * The port of the address that leads to the standby of the moment.
	 * @return the port
	 */
	public int standbyPort() {
		return this.standbyService.port();
	}

	/**
	 * Switches over to the standby and makes the former primary its standby; returns once
	 * both run.
	 * @return when the new primary took the address, {@link System#nanoTime()}
	 */
	public synchronized long switchOver() {
		EmbeddedPostgresServer from = this.nodes.get(this.primary);
		EmbeddedPostgresServer to = this.nodes.get(1 - this.primary);
		from.execute("postgres", "CHECKPOINT");
		from.stop();
		to.promote();
		// No standby streams from it yet: its failover slots' consumers must not wait for
		// one.
		to.execute("postgres", "ALTER SYSTEM RESET synchronized_standby_slots", "SELECT pg_reload_conf()");
		this.primary = 1 - this.primary;
		this.switchovers++;
		long switched;
		try {
			this.primaryService.retarget(to.host(), to.port());
			this.primaryService.closeConnections();
			switched = System.nanoTime();
			// A slot of that name left from its own time as a primary is as old as that
			// time: a new one.
			to.execute("postgres",
					"SELECT pg_drop_replication_slot(slot_name) FROM pg_replication_slots" + " WHERE slot_name = '"
							+ STANDBY_SLOT + "'",
					"SELECT pg_create_physical_replication_slot('" + STANDBY_SLOT + "', true)");
			Standby.follow(from.dataDirectory(), to, STANDBY_SLOT, true);
			from.start();
			// Its own physical slot, which its former standby streamed through, serves no
			// one now.
			from.execute("postgres", "SELECT pg_drop_replication_slot(slot_name) FROM pg_replication_slots"
					+ " WHERE slot_name = '" + STANDBY_SLOT + "'");
			waitForTheStandby(to);
			this.standbyService.retarget(from.host(), from.port());
			this.standbyService.closeConnections();
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
		return switched;
	}

	/**
	 * Where a session of the primary came from: the server sees its Service's port, this
	 * says which client's connection that is.
	 * @param clientPort the session's {@code client_port}
	 * @return the port its client connected to the Service from, {@code null} when
	 * unknown
	 */
	public Integer clientPortOf(int clientPort) {
		return this.primaryService.clientPortOf(clientPort);
	}

	/**
	 * How many times the primary changed.
	 * @return the count
	 */
	public int switchovers() {
		return this.switchovers;
	}

	/**
	 * Waits, at most 5 s, until the standby has confirmed all the primary wrote: before a
	 * checkpoint that follows a segment switch, so that a {@code max_slot_wal_keep_size}
	 * below one segment does not invalidate its slot (which would stall every failover
	 * slot, waiting for it).
	 */
	public void awaitStandbyCaughtUp() {
		try {
			org.awaitility.Awaitility.await()
				.atMost(java.time.Duration.ofSeconds(5))
				.pollInterval(java.time.Duration.ofMillis(20))
				.until(() -> "true".equals(primary().queryForString("postgres",
						"SELECT (restart_lsn >="
								+ " pg_current_wal_lsn())::text FROM pg_replication_slots WHERE slot_name = '"
								+ STANDBY_SLOT + "'")));
		}
		catch (org.awaitility.core.ConditionTimeoutException ex) {
			// the checkpoint goes ahead, as an operator's would
		}
	}

	private static void waitForTheStandby(PostgresServer primary) {
		primary.execute("postgres", "ALTER SYSTEM SET synchronized_standby_slots = '" + STANDBY_SLOT + "'",
				"SELECT pg_reload_conf()");
	}

	@Override
	public String host() {
		return "127.0.0.1";
	}

	@Override
	public int port() {
		return this.primaryService.port();
	}

	@Override
	public String user() {
		return primary().user();
	}

	@Override
	public String password() {
		return primary().password();
	}

	@Override
	public void stop() {
		primary().stop();
	}

	@Override
	public void start() {
		primary().start();
	}

	@Override
	public void freeze() {
		primary().freeze();
	}

	@Override
	public void thaw() {
		primary().thaw();
	}

	@Override
	public boolean supportsFaults() {
		return true;
	}

	@Override
	public void close() {
		try {
			this.primaryService.close();
			this.standbyService.close();
		}
		catch (IOException ex) {
			// closing anyway
		}
		this.nodes.forEach(EmbeddedPostgresServer::close);
	}

}
