package io.slotkeeper.lineage;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Collection;
import java.util.Deque;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import io.slotkeeper.config.ResnapshotProperties;
import io.slotkeeper.config.SlotPolicyProperties;
import io.slotkeeper.sessions.Lsn;

/**
 * The table write counters of a target's database as sampled while its slots are healthy,
 * for a re-snapshot of only the tables a recreate skipped changes of
 * ({@code resnapshot.tables: changed}) and the count of the rows deleted in a recreate's
 * gap ({@link GapDeletes}). Every instance samples on its heartbeat session every few
 * beats; kept here are the newest reading every such slot had confirmed when it was taken
 * (the one a loss is measured from) and the few after it.
 */
public final class TableCounters {

	// Newer readings than the one every slot confirmed: enough for a consumer that lags a
	// few samples behind.
	private static final int NEWER_KEPT = 8;

	/**
	 * The most tables of one database sampled: past it, the database is not sampled (a
	 * re-snapshot then reads every table) and the {@code slots} health says so. Nine
	 * readings of 20,000 tables, their names and unchanged counters shared, took 4.6 MB
	 * of heap in {@code TableCountersTests}: at this cap, about half that per target.
	 */
	public static final int MOST_TABLES = 10_000;

	// Apart from the beat's statement timeout: a large catalog must not make the
	// heartbeat session time out.
	private static final String TIMEOUT = "SELECT pg_catalog.set_config('statement_timeout', '10s', true)";

	// Only while every such slot is read: a slot just recreated (its consumer not yet
	// handed over) or whose consumer
	// is gone must not move the reading a loss is measured from past the lost slot's last
	// position.
	private static final String CONFIRMED = "SELECT pg_catalog.min(confirmed_flush_lsn)::text FROM"
			+ " pg_catalog.pg_replication_slots WHERE slot_name = ANY (?) AND database = pg_catalog.current_database()"
			+ " HAVING pg_catalog.bool_and(active)";

	private final Deque<TableWrites> readings = new ArrayDeque<>();

	private volatile String notSampledBecause;

	private TableWrites last;

	private volatile long sampledAt;

	private volatile boolean sampled;

	/**
	 * Whether a slot's table counters are sampled: its gap is closed by a re-snapshot,
	 * which re-reads the rows that exist, so the deletes it cannot bring back are counted
	 * ({@link GapDeletes}), and with {@code tables: changed} only the tables written to
	 * are read again.
	 * @param policy the slot's policy
	 * @return whether they are
	 */
	public static boolean sampledFor(SlotPolicyProperties policy) {
		return policy.resnapshot().mode() == ResnapshotProperties.Mode.DEBEZIUM_SIGNAL
				|| policy.resnapshot().tables() == ResnapshotProperties.Tables.CHANGED;
	}

	/**
	 * Whether it is time to sample again.
	 * @param every how often
	 * @return whether it was never sampled or not for that long
	 */
	public boolean due(Duration every) {
		return !this.sampled || System.nanoTime() - this.sampledAt >= every.toNanos();
	}

	/**
	 * Samples the counters and lets go of readings no slot needs.
	 * @param connection a session on the primary in the target's database, in autocommit
	 * @param slots the slots whose re-snapshot reads only changed tables
	 * @param tables the tables to sample, {@code null} for every table
	 * @throws SQLException when the server refuses; the next sample is taken when due
	 * again
	 */
	public void sample(Connection connection, List<String> slots, Collection<String> tables) throws SQLException {
		sample(connection, slots, tables, MOST_TABLES);
	}

	void sample(Connection connection, List<String> slots, Collection<String> tables, int most) throws SQLException {
		this.sampledAt = System.nanoTime();
		this.sampled = true;
		Long confirmed;
		TableWrites reading;
		boolean autoCommit = connection.getAutoCommit();
		connection.setAutoCommit(false);
		try (Statement statement = connection.createStatement()) {
			statement.execute(TIMEOUT);
			confirmed = confirmed(connection, slots);
			reading = TableWrites.read(connection, tables, most, this.last);
			connection.commit();
		}
		finally {
			if (!connection.getAutoCommit()) {
				connection.rollback();
				connection.setAutoCommit(autoCommit);
			}
		}
		if (reading == null) {
			this.notSampledBecause = "the database has more than " + most + " tables and the slots' re-snapshot"
					+ " lists none (resnapshot.collections, or the connector's table.include.list): its table counters"
					+ " are not sampled, so a re-snapshot after a loss reads every table";
			synchronized (this.readings) {
				this.readings.clear();
				this.last = null;
			}
			return;
		}
		this.notSampledBecause = null;
		synchronized (this.readings) {
			this.last = reading;
			this.readings.addLast(reading);
			prune(confirmed);
		}
	}

	/**
	 * Why the database's table counters are not sampled, for the {@code slots} health.
	 * @return the reason, {@code null} while they are (or nothing asks for them)
	 */
	public String notSampledBecause() {
		return this.notSampledBecause;
	}

	/**
	 * The newest reading taken before a position: nothing committed after it is in its
	 * counters.
	 * @param lsn the position, such as the last one a lost slot's consumer confirmed
	 * @return the reading, empty when none is that old
	 */
	public Optional<TableWrites> before(long lsn) {
		synchronized (this.readings) {
			Iterator<TableWrites> newestFirst = this.readings.descendingIterator();
			while (newestFirst.hasNext()) {
				TableWrites reading = newestFirst.next();
				if (reading.lsn() <= lsn) {
					return Optional.of(reading);
				}
			}
			return Optional.empty();
		}
	}

	// The readings kept, oldest first.
	List<TableWrites> kept() {
		synchronized (this.readings) {
			return List.copyOf(this.readings);
		}
	}

	/**
	 * Forgets every reading: no slot asks for one.
	 */
	public void clear() {
		this.notSampledBecause = null;
		synchronized (this.readings) {
			this.readings.clear();
			this.last = null;
		}
	}

	// Keeps the newest reading every slot had confirmed, and at most a few after it.
	private void prune(Long confirmed) {
		if (confirmed != null) {
			while (this.readings.size() > 1 && secondOldest().lsn() <= confirmed) {
				this.readings.removeFirst();
			}
		}
		while (this.readings.size() > NEWER_KEPT + 1) {
			TableWrites base = this.readings.removeFirst();
			this.readings.removeFirst();
			this.readings.addFirst(base);
		}
	}

	private TableWrites secondOldest() {
		Iterator<TableWrites> oldestFirst = this.readings.iterator();
		oldestFirst.next();
		return oldestFirst.next();
	}

	private static Long confirmed(Connection connection, List<String> slots) throws SQLException {
		try (PreparedStatement statement = connection.prepareStatement(CONFIRMED)) {
			statement.setArray(1, connection.createArrayOf("text", slots.toArray()));
			try (ResultSet row = statement.executeQuery()) {
				return (row.next() && row.getString(1) != null) ? Lsn.parse(row.getString(1)) : null;
			}
		}
	}

}
